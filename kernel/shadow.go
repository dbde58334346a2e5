package kernel

import (
	"errors"
	"fmt"

	"github.com/cmdbridge/cmdbridge/kernel/lane"
)

// The shadow decorator is plugged in (Config.Shadow), as the lanes are; these are the
// contract's names here.
type (
	// Shadows serve a kernel's shadow-routed calls: a decorator of the serving lane with
	// the native lane, its counts, and what it keeps until Close (lane.Shadows; package
	// kernel/shadow's Runs are the implementation kernel/assemble plugs in).
	Shadows = lane.Shadows
	// ShadowStat counts the shadow comparisons of one tool since the kernel started
	// (lane.ShadowStat).
	ShadowStat = lane.ShadowStat
)

// ShadowStats returns the shadow metric per tool: how many shadow-routed calls ran and
// how many disagreed. Tools never shadowed are absent.
func (k *Kernel) ShadowStats() map[string]ShadowStat {
	if k.shadows == nil {
		return map[string]ShadowStat{}
	}
	return k.shadows.Stats()
}

// checkShadowRoutes refuses a shadow route the kernel could only serve without its
// comparison: every shadow-routed tool needs the shadow runs (Config.Shadow) and the
// native lane they run beside the served lane. Serving the adapter alone would make a
// route that promises evidence (the receipts' shadow notes that promotion is judged on)
// leave none, silently.
func (k *Kernel) checkShadowRoutes() error {
	for _, name := range k.names.All() {
		if k.entries[name].route != RouteShadow {
			continue
		}
		switch {
		case k.cfg.Shadow == nil:
			return fmt.Errorf("tool %s: route %q needs Config.Shadow, the shadow runs that compare it (kernel/assemble plugs in package kernel/shadow's)", name, RouteShadow)
		case k.lanes[LaneNative] == nil:
			return fmt.Errorf("tool %s: route %q needs a %s lane to compare it on", name, RouteShadow, LaneNative)
		}
	}
	return nil
}

// openShadows builds the shadow runs from Config.Shadow over the state directory found.
func (k *Kernel) openShadows() error {
	if k.cfg.Shadow == nil {
		return nil
	}
	s, err := k.cfg.Shadow(k.state)
	switch {
	case err != nil:
		return fmt.Errorf("shadow runs: %w", err)
	case s == nil:
		return errors.New("shadow runs: Config.Shadow returned none")
	}
	k.shadows = s
	return nil
}

// closeShadows closes the shadow runs, if any, and joins what that returns to err.
func (k *Kernel) closeShadows(err error) error {
	if k.shadows == nil {
		return err
	}
	return errors.Join(err, k.shadows.Close())
}
