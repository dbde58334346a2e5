package parity

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/cmdbridge/cmdbridge/tool"
)

// RunSuite runs the suite's scripts outside `go test`, one after another
// (the adapter lane swaps process globals), and returns one ToolResult per
// script in run order. progress, when set, is called before (done=false)
// and after (done=true) each script. A script whose parity call could not
// run (no lanes, copy failure) or that could not start is StatusError, and so
// is a tool s.Check refuses (its script is not run; the message is the Diff);
// a failing script whose native lane answered NOT_IMPLEMENTED is
// StatusInProgress; any other failure is StatusFail with the script's log as
// Diff. Each result carries the time its script started.
func RunSuite(s Suite, progress func(r ToolResult, done bool)) (Results, error) {
	results := Results{SchemaVersion: ResultsSchemaVersion, RunAt: time.Now()}
	files, err := s.scripts()
	if err != nil {
		return results, err
	}
	var mu sync.Mutex
	lanes := map[string][]string{}
	errored := map[string]bool{}
	unwritten := map[string]bool{}
	routed := map[string]map[string]string{}
	observe := s.Observe
	s.Observe = func(script string, rep *Report, err error) {
		mu.Lock()
		if err != nil {
			errored[script] = true
		} else {
			for _, l := range rep.Lanes {
				if !contains(lanes[script], l) {
					lanes[script] = append(lanes[script], l)
				}
			}
			if notImplemented(rep) {
				unwritten[script] = true
			}
			for _, res := range rep.Results {
				if res.Routed != "" {
					if routed[script] == nil {
						routed[script] = map[string]string{}
					}
					routed[script][res.Lane] = res.Routed
				}
			}
		}
		mu.Unlock()
		if observe != nil {
			observe(script, rep, err)
		}
	}
	names := s.scriptTools()
	for _, f := range files {
		s.Files = []string{f}
		name := strings.TrimSuffix(filepath.Base(f), ".txtar")
		start := time.Now()
		r := ToolResult{Tool: names(name), Script: filepath.ToSlash(f), Lanes: []string{}, RunAt: start.UTC().Truncate(time.Second)}
		if progress != nil {
			progress(r, false)
		}
		refused := ""
		if s.Check != nil {
			refused = s.Check(r.Tool)
		}
		st := &suiteT{}
		if refused == "" {
			p, err := s.Params()
			if err == nil {
				st.run(func() { testscript.RunT(st, p) })
			} else {
				st.failed, st.log = true, err.Error()
			}
		}
		r.DurationMS = time.Since(start).Milliseconds()
		r.Lanes = append(r.Lanes, lanes[name]...)
		r.Routed = routed[name]
		switch {
		case refused != "":
			r.Status, r.Diff = StatusError, refused
		case st.setupFailed || errored[name]:
			r.Status, r.Diff = StatusError, strings.TrimSpace(st.log)
		case st.failed && unwritten[name]:
			r.Status, r.Diff = StatusInProgress, strings.TrimSpace(st.log)
		case st.failed:
			r.Status, r.Diff = StatusFail, strings.TrimSpace(st.log)
		default:
			r.Status = StatusPass
		}
		results.Tools = append(results.Tools, r)
		if progress != nil {
			progress(r, true)
		}
	}
	return results, nil
}

// notImplemented reports whether the native lane of rep answered
// NOT_IMPLEMENTED: the scaffold's skeleton handler, not written yet.
func notImplemented(rep *Report) bool {
	if rep == nil {
		return false
	}
	for _, r := range rep.Results {
		if r.Lane == LaneNative && r.Output.Error != nil && r.Output.Error.Code == tool.CodeNotImplemented {
			return true
		}
	}
	return false
}

// scriptTools maps a script name to its tool's canonical name (wu_status →
// wu:status) using the suite's known tools; unknown names keep the script
// name with its first '_' turned into ':'.
func (s Suite) scriptTools() func(string) string {
	byScript := map[string]string{}
	for _, n := range s.ToolNames() {
		byScript[ScriptName(n)] = n
	}
	return func(script string) string {
		if n, ok := byScript[script]; ok {
			return n
		}
		return strings.Replace(script, "_", ":", 1)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// suiteT is a testscript.T for running scripts outside the testing package.
// Fatal and FailNow end the calling goroutine, as in testing; Run runs the
// subtest synchronously on its own goroutine.
type suiteT struct {
	mu          sync.Mutex
	log         string
	failed      bool
	setupFailed bool // a failure outside any script (RunT itself)
	sub         bool
}

func (t *suiteT) run(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
}

func (t *suiteT) Skip(args ...any) {
	t.Log(append([]any{"skipped:"}, args...)...)
	t.FailNow()
}

func (t *suiteT) Fatal(args ...any) {
	t.Log(args...)
	t.FailNow()
}

func (t *suiteT) FailNow() {
	t.mu.Lock()
	t.failed = true
	if !t.sub {
		t.setupFailed = true
	}
	t.mu.Unlock()
	runtime.Goexit()
}

func (t *suiteT) Parallel() {}

func (t *suiteT) Log(args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.log += fmt.Sprintln(args...)
}

func (t *suiteT) Verbose() bool { return false }

func (t *suiteT) Run(name string, f func(testscript.T)) {
	sub := &suiteT{sub: true}
	sub.run(func() { f(sub) })
	t.mu.Lock()
	defer t.mu.Unlock()
	if sub.failed {
		t.failed = true
		t.log += sub.log
	}
}
