package kernel

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/statedir"
	"github.com/cmdbridge/cmdbridge/parity/compare"
	"github.com/cmdbridge/cmdbridge/tool"
)

// maxShadowDiffs bounds the differences one receipt records.
const maxShadowDiffs = 20

// ShadowStat counts the shadow comparisons of one tool since the kernel started.
type ShadowStat struct {
	// Runs is every shadow-routed call that reached dispatch.
	Runs int64 `json:"runs"`
	// Mismatches are runs whose native result or file tree differed from the adapter's.
	Mismatches int64 `json:"mismatches"`
	// Errors are runs whose shadow could not be made or finished (copy failed, deadline).
	Errors int64 `json:"errors"`
}

type shadowStats struct {
	mu sync.Mutex
	by map[string]*ShadowStat
}

func (s *shadowStats) add(name string, note *evidence.ShadowNote) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.by == nil {
		s.by = map[string]*ShadowStat{}
	}
	st := s.by[name]
	if st == nil {
		st = &ShadowStat{}
		s.by[name] = st
	}
	st.Runs++
	switch {
	case note.Error != "":
		st.Errors++
	case !note.Match:
		st.Mismatches++
	}
}

// ShadowStats returns the shadow metric per tool: how many shadow-routed calls ran and
// how many disagreed. Tools never shadowed are absent.
func (k *Kernel) ShadowStats() map[string]ShadowStat {
	k.shadows.mu.Lock()
	defer k.shadows.mu.Unlock()
	out := make(map[string]ShadowStat, len(k.shadows.by))
	for name, st := range k.shadows.by {
		out[name] = *st
	}
	return out
}

// shadowLane decorates the lane a shadow-routed call is served on (primary: the adapter
// lane, or the sandbox lane for a sandboxed tool) with a run of its secondary (the
// native lane). Before the primary touches the workspace it is copied to a scratch
// directory (without .cmdbridge and the kernel's state); the secondary runs on the copy
// at the same time as the primary runs on the real workspace; the served result is
// always the primary's. Afterwards the two outputs and the two resulting trees are
// compared with parity's normalisation, and the outcome lands in the receipt (Shadow)
// and in ShadowStats. A shadow that cannot be made never changes the served result; it
// is recorded as an error.
type shadowLane struct {
	k                  *Kernel
	primary, secondary Lane
}

// Name is the primary's name: the receipt records the lane that served the call.
func (s shadowLane) Name() string { return s.primary.Name() }

// Run serves the primary and records the comparison with the secondary.
func (s shadowLane) Run(ctx context.Context, call LaneCall) tool.Output {
	return runBound(ctx, s, call)
}

// bind prepares the primary first: an input the primary rejects fails the call as it
// would unshadowed.
func (s shadowLane) bind(call LaneCall) (func(ctx context.Context) tool.Output, error) {
	served, err := bind(s.primary, call)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) tool.Output { return s.run(ctx, call, served) }, nil
}

func (s shadowLane) run(ctx context.Context, call LaneCall, served func(ctx context.Context) tool.Output) tool.Output {
	k := s.k
	start := time.Now()
	note := &evidence.ShadowNote{}
	defer func() {
		note.DurationUS = time.Since(start).Microseconds()
		call.notes.storeShadow(note)
		k.shadows.add(call.Spec.Name, note)
	}()
	scratch, err := os.MkdirTemp("", "cmdbridge-shadow-")
	if err != nil {
		note.Error = fmt.Sprintf("scratch directory: %v", err)
		return served(ctx)
	}
	copyDir := filepath.Join(scratch, "ws")
	// The kernel's state stays out of the copy, but not the workspace's own files beside
	// it: a committed .cmdbridge/config.yaml (where routes: shadow is set) missing from
	// the copy would make every shadow run of a git workspace differ in git status.
	skip := func(rel string) bool {
		if dir, name, ok := strings.Cut(filepath.ToSlash(rel), "/"); ok && dir == statedir.LegacyDir && !strings.Contains(name, "/") && slices.Contains(statedir.Names, name) {
			return true
		}
		return within(filepath.Join(call.Dir, rel), k.state.Root)
	}
	if err := compare.CopyTree(call.Dir, copyDir, skip); err != nil {
		_ = os.RemoveAll(scratch)
		note.Error = fmt.Sprintf("copy workspace: %v", err)
		return served(ctx)
	}
	shadow := call
	shadow.Dir = copyDir
	run, err := bind(s.secondary, shadow)
	if err != nil {
		_ = os.RemoveAll(scratch)
		note.Error = fmt.Sprintf("%s lane rejected the input: %v", s.secondary.Name(), err)
		return served(ctx)
	}
	second := make(chan tool.Output, 1)
	go func() {
		second <- safely(call.Spec.Name, s.secondary.Name(), func() tool.Output { return run(ctx) })
	}()
	out := served(ctx)
	var sout tool.Output
	select {
	case sout = <-second:
	case <-ctx.Done():
		note.Error = "the " + s.secondary.Name() + " lane did not finish before the call's deadline"
		// The copy goes when the secondary run ends; the served result does not wait.
		go func() { <-second; _ = os.RemoveAll(scratch) }()
		return out
	}
	defer os.RemoveAll(scratch)
	note.Diffs, err = shadowDiffs(call.Dir, copyDir, out, sout)
	if err != nil {
		note.Error = err.Error()
		return out
	}
	note.Match = len(note.Diffs) == 0
	return out
}

// shadowDiffs compares the served and native results and trees; one line per difference.
func shadowDiffs(served, shadow string, out, nout tool.Output) ([]string, error) {
	norm := compare.NewNormalizer(served, shadow)
	diffs := compare.CompareOutputs(out, nout, norm)
	a, err := compare.Snapshot(served)
	if err != nil {
		return nil, fmt.Errorf("snapshot workspace: %w", err)
	}
	b, err := compare.Snapshot(shadow)
	if err != nil {
		return nil, fmt.Errorf("snapshot shadow copy: %w", err)
	}
	diffs = append(diffs, compare.CompareTrees(a.Normalize(norm), b.Normalize(norm))...)
	lines := make([]string, 0, len(diffs))
	for _, d := range diffs {
		line := fmt.Sprintf("adapter/native %s %s", d.Kind, d.Path)
		if d.Want != "" || d.Got != "" {
			line += fmt.Sprintf(": adapter %s, native %s", d.Want, d.Got)
		}
		lines = append(lines, line)
	}
	sort.Strings(lines)
	if len(lines) > maxShadowDiffs {
		lines = append(lines[:maxShadowDiffs], fmt.Sprintf("… and %d more", len(lines)-maxShadowDiffs))
	}
	return lines, nil
}
