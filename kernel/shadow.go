package kernel

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/statedir"
	"github.com/cmdbridge/cmdbridge/parity"
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

// shadowed wraps the adapter run of a shadow-routed call. Before the adapter touches the
// workspace it is copied to a scratch directory (without .cmdbridge, the kernel's own
// state); the native lane runs on the copy at the same time as the adapter runs on the
// real workspace; the served result is always the adapter's. Afterwards the two outputs
// and the two resulting trees are compared with parity's normalisation, and the outcome
// lands in the receipt (Shadow) and in ShadowStats. A shadow that cannot be made never
// changes the served result; it is recorded as an error.
func (c *call) shadowed(e *entry, input json.RawMessage, served func(ctx context.Context) tool.Output) func(ctx context.Context) tool.Output {
	k := c.k
	return func(ctx context.Context) tool.Output {
		start := time.Now()
		note := &evidence.ShadowNote{}
		defer func() {
			note.DurationUS = time.Since(start).Microseconds()
			c.shadow.Store(note)
			k.shadows.add(e.spec.Name, note)
		}()
		scratch, err := os.MkdirTemp("", "cmdbridge-shadow-")
		if err != nil {
			note.Error = fmt.Sprintf("scratch directory: %v", err)
			return served(ctx)
		}
		copyDir := filepath.Join(scratch, "ws")
		skip := func(rel string) bool {
			return rel == statedir.LegacyDir || within(filepath.Join(k.workspace, rel), k.state.Root)
		}
		if err := parity.CopyTree(k.workspace, copyDir, skip); err != nil {
			_ = os.RemoveAll(scratch)
			note.Error = fmt.Sprintf("copy workspace: %v", err)
			return served(ctx)
		}
		run, err := e.native.Bind(input)
		if err != nil {
			_ = os.RemoveAll(scratch)
			note.Error = fmt.Sprintf("native lane rejected the input: %v", err)
			return served(ctx)
		}
		env := c.nativeEnv()
		env.Dir = copyDir
		native := make(chan tool.Output, 1)
		go func() {
			native <- safely(e.spec.Name, LaneNative, func() tool.Output { return run(ctx, env) })
		}()
		out := served(ctx)
		var nout tool.Output
		select {
		case nout = <-native:
		case <-ctx.Done():
			note.Error = "the native lane did not finish before the call's deadline"
			// The copy goes when the native run ends; the served result does not wait.
			go func() { <-native; _ = os.RemoveAll(scratch) }()
			return out
		}
		defer os.RemoveAll(scratch)
		note.Diffs, err = shadowDiffs(k.workspace, copyDir, out, nout)
		if err != nil {
			note.Error = err.Error()
			return out
		}
		note.Match = len(note.Diffs) == 0
		return out
	}
}

// shadowDiffs compares the served and native results and trees; one line per difference.
func shadowDiffs(served, shadow string, out, nout tool.Output) ([]string, error) {
	norm := parity.NewNormalizer(served, shadow)
	diffs := parity.CompareOutputs(out, nout, norm)
	a, err := parity.Snapshot(served)
	if err != nil {
		return nil, fmt.Errorf("snapshot workspace: %w", err)
	}
	b, err := parity.Snapshot(shadow)
	if err != nil {
		return nil, fmt.Errorf("snapshot shadow copy: %w", err)
	}
	diffs = append(diffs, parity.CompareTrees(a.Normalize(norm), b.Normalize(norm))...)
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
