package shadow

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/lane"
	"github.com/cmdbridge/cmdbridge/kernel/statedir"
	"github.com/cmdbridge/cmdbridge/parity/compare"
	"github.com/cmdbridge/cmdbridge/tool"
)

// maxDiffs bounds the differences one receipt records.
const maxDiffs = 20

// Stat counts the shadow comparisons of one tool since the runs began (lane.ShadowStat,
// the contract's).
type Stat = lane.ShadowStat

// Runs are the lane contract's Shadows: what a kernel is given to serve shadow-routed
// calls.
var _ lane.Shadows = (*Runs)(nil)

type stats struct {
	mu sync.Mutex
	by map[string]*Stat
}

func (s *stats) add(name string, note *evidence.ShadowNote) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.by == nil {
		s.by = map[string]*Stat{}
	}
	st := s.by[name]
	if st == nil {
		st = &Stat{}
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

// Runs are the shadow runs of one kernel: the directories they use, kept from one run
// to the next, and their counts per tool. Runs.Lane decorates the lane a shadow-routed
// call is served on (primary: the adapter lane, or the sandbox lane for a sandboxed
// tool) with a run of its secondary (the native lane). Before the primary touches the
// workspace, a directory kept for shadow runs of that workspace is brought to its
// content (without the kernel's state; see dirs); the secondary runs on the copy at the
// same time as the primary runs on the real workspace; the served result is always the
// primary's. Afterwards the two outputs and the two resulting trees are compared with
// parity's normalisation, and the outcome lands in the receipt (lane.Notes.SetShadow)
// and in Stats. A shadow that cannot be made never changes the served result; it is
// recorded as an error.
type Runs struct {
	state string
	dirs  dirs
	stats stats
}

// New returns the shadow runs of a kernel whose state directory is state: it, and the
// workspace's own state files in its .cmdbridge, are never copied.
func New(state string) *Runs { return &Runs{state: state} }

// Stats returns the shadow metric per tool: how many shadow-routed calls ran and how
// many disagreed. Tools never shadowed are absent.
func (r *Runs) Stats() map[string]Stat {
	r.stats.mu.Lock()
	defer r.stats.mu.Unlock()
	out := make(map[string]Stat, len(r.stats.by))
	for name, st := range r.stats.by {
		out[name] = *st
	}
	return out
}

// Close removes the directories kept for shadow runs; one still in use goes when its
// run ends.
func (r *Runs) Close() error { return r.dirs.close() }

// Lane decorates primary with a shadow run of secondary. Its name is the primary's: the
// receipt records the lane that served the call.
func (r *Runs) Lane(primary, secondary lane.Lane) lane.Lane {
	return shadowLane{r: r, primary: primary, secondary: secondary}
}

type shadowLane struct {
	r                  *Runs
	primary, secondary lane.Lane
}

// Name is the primary's name.
func (s shadowLane) Name() string { return s.primary.Name() }

// Run serves the primary and records the comparison with the secondary.
func (s shadowLane) Run(ctx context.Context, call lane.Call) tool.Output {
	return lane.RunBound(ctx, s, call)
}

// Bind prepares the primary first: an input the primary rejects fails the call as it
// would unshadowed.
func (s shadowLane) Bind(call lane.Call) (func(ctx context.Context) tool.Output, error) {
	served, err := lane.Bind(s.primary, call)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) tool.Output { return s.run(ctx, call, served) }, nil
}

func (s shadowLane) run(ctx context.Context, call lane.Call, served func(ctx context.Context) tool.Output) tool.Output {
	r := s.r
	start := time.Now()
	note := &evidence.ShadowNote{}
	defer func() {
		note.DurationUS = time.Since(start).Microseconds()
		call.Notes.SetShadow(note)
		r.stats.add(call.Spec.Name, note)
	}()
	// The kernel's state stays out of the copy, but not the workspace's own files beside
	// it: a committed .cmdbridge/config.yaml (where routes: shadow is set) missing from
	// the copy would make every shadow run of a git workspace differ in git status.
	skip := func(rel string) bool {
		if dir, name, ok := strings.Cut(filepath.ToSlash(rel), "/"); ok && dir == statedir.LegacyDir && !strings.Contains(name, "/") && slices.Contains(statedir.Names, name) {
			return true
		}
		return within(filepath.Join(call.Dir, rel), r.state)
	}
	mirror, err := r.dirs.take(call.Dir, skip)
	if err != nil {
		note.Error = err.Error()
		return served(ctx)
	}
	copyDir := mirror.Dst
	shadow := call
	shadow.Dir = copyDir
	// The secondary's notes are not the served call's: the receipt records the lane that
	// served it, and a native run on the copy noting, say, its commit would read as the
	// served call's. The shadow note has no place for them, so they are dropped.
	shadow.Notes = nil
	run, err := lane.Bind(s.secondary, shadow)
	if err != nil {
		r.dirs.give(call.Dir, mirror)
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
		// The directory is free again when the secondary run ends; the served result
		// does not wait.
		go func() { <-second; r.dirs.give(call.Dir, mirror) }()
		return out
	}
	defer r.dirs.give(call.Dir, mirror)
	note.Diffs, err = shadowDiffs(call.Dir, copyDir, out, sout, mirror.Unchanged())
	if err != nil {
		note.Error = err.Error()
		return out
	}
	note.Match = len(note.Diffs) == 0
	return out
}

// shadowDiffs compares the served and native results and trees; one line per difference.
// The files in same are equal in both trees (neither run touched them since the copy was
// brought in step) and are not read.
func shadowDiffs(served, shadow string, out, nout tool.Output, same map[string]string) ([]string, error) {
	norm := compare.NewNormalizer(served, shadow)
	norm.Above = []string{filepath.Dir(served), filepath.Dir(shadow)}
	diffs := compare.CompareOutputs(out, nout, norm)
	a, err := compare.SnapshotKnown(served, nil, same)
	if err != nil {
		return nil, fmt.Errorf("snapshot workspace: %w", err)
	}
	b, err := compare.SnapshotKnown(shadow, nil, same)
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
	if len(lines) > maxDiffs {
		lines = append(lines[:maxDiffs], fmt.Sprintf("… and %d more", len(lines)-maxDiffs))
	}
	return lines, nil
}

// maxIdleShadowDirs bounds the directories kept per workspace between shadow runs: one
// per shadow call running at once, up to this many, are kept; more are removed.
const maxIdleShadowDirs = 2

// dirs keeps the directories shadow runs use, per workspace, from one run to the
// next. A fresh copy of a workspace for every shadow-routed call wrote every file of it
// (245 ms for the 1,265-WU workspace on tmpfs, 1.9 s on a busy ext4, 1.67 s at 16×);
// a kept directory is brought to the workspace's content by a compare.Mirror, which reads
// and writes only what changed since the last run on either side, including whatever the
// last native run wrote there. A directory serves one run at a time; a run whose
// directory cannot be brought in step gets its error recorded and the directory is
// dropped. The directories live below one temporary directory (TMPDIR), removed by
// Runs.Close.
type dirs struct {
	mu     sync.Mutex
	root   string                       // "": none made yet
	idle   map[string][]*compare.Mirror // workspace -> directories no run uses
	made   int
	busy   int // directories a run is using
	closed bool
}

// take returns a directory holding ws's content (less what skip names), kept from an
// earlier run when one is idle.
func (s *dirs) take(ws string, skip func(rel string) bool) (*compare.Mirror, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, errors.New("the kernel is closed")
	}
	if s.root == "" {
		root, err := os.MkdirTemp("", "cmdbridge-shadow-")
		if err != nil {
			s.mu.Unlock()
			return nil, fmt.Errorf("scratch directory: %w", err)
		}
		s.root, s.idle = root, map[string][]*compare.Mirror{}
	}
	var m *compare.Mirror
	if free := s.idle[ws]; len(free) > 0 {
		m, s.idle[ws] = free[len(free)-1], free[:len(free)-1]
	} else {
		s.made++
		// The copy has the workspace's base name, in a directory of its own: a command
		// that names the workspace after its directory sees the same name.
		m = &compare.Mirror{Src: ws, Dst: filepath.Join(s.root, strconv.Itoa(s.made), filepath.Base(ws)), Skip: skip}
	}
	s.busy++
	s.mu.Unlock()
	if err := m.Sync(); err != nil {
		s.drop(filepath.Dir(m.Dst))
		return nil, fmt.Errorf("copy workspace: %w", err)
	}
	return m, nil
}

// give hands dir back for ws's next run, or removes it when enough are idle or the
// kernel has closed.
func (s *dirs) give(ws string, m *compare.Mirror) {
	s.mu.Lock()
	if !s.closed && len(s.idle[ws]) < maxIdleShadowDirs {
		s.idle[ws] = append(s.idle[ws], m)
		s.busy--
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	s.drop(filepath.Dir(m.Dst))
}

// drop removes a directory a run used, and the root with the last one once the kernel
// has closed.
func (s *dirs) drop(dir string) {
	_ = os.RemoveAll(dir)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.busy--
	if s.closed && s.busy == 0 {
		_ = os.Remove(s.root)
	}
}

// close removes the idle directories; one still in use goes when its run gives it back.
func (s *dirs) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	var err error
	for _, ms := range s.idle {
		for _, m := range ms {
			err = errors.Join(err, os.RemoveAll(filepath.Dir(m.Dst)))
		}
	}
	s.idle = nil
	if s.root != "" && s.busy == 0 {
		err = errors.Join(err, os.Remove(s.root))
	}
	return err
}

// safely runs the secondary, turning a panic into EXECUTION_FAILED.
func safely(name, laneName string, run func() tool.Output) (out tool.Output) {
	defer func() {
		if r := recover(); r != nil {
			out = tool.Fail(tool.CodeExecutionFailed, "%s: lane %s panicked: %v", name, laneName, r)
		}
	}()
	return run()
}

// within reports whether p is dir or lies below it (both clean and absolute).
func within(p, dir string) bool {
	return p == dir || dir == string(filepath.Separator) || strings.HasPrefix(p, dir+string(filepath.Separator))
}
