// Package paritytest runs parity scripts from an adopter's own tests, so `go test` proves
// that native handlers do what the legacy commands do without any parity command linked
// into the program that ships:
//
//	func TestParity(t *testing.T) {
//		cmds := legacy.NewRegistry()
//		if err := cmds.AddApp(app.New, legacy.TreeOptions{}); err != nil {
//			t.Fatal(err)
//		}
//		paritytest.Run(t, parity.Suite{Dir: "testdata/parity", Commands: cmds, Native: nativetools.Registry}, paritytest.Config{})
//	}
//
// Each script is one subtest named after its tool; a script whose lanes differ fails it
// with parity's readable difference. Like testscript.Run, it is a test helper: it belongs
// in _test.go files, where the testing package it uses costs the program nothing.
package paritytest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cmdbridge/cmdbridge/parity"
)

// Config changes what counts as a failure.
type Config struct {
	// AllowInProgress lets a tool whose native handler still answers NOT_IMPLEMENTED
	// (scaffolded, not yet written) pass its subtest with a log line; by default it
	// fails, as `parity` without --allow-in-progress does.
	AllowInProgress bool
}

// Failure is one tool whose parity did not hold.
type Failure struct {
	Tool, Script, Status string
	// Diff is parity's readable difference, or why the script could not run.
	Diff string
}

func (f Failure) String() string {
	return fmt.Sprintf("parity of %s (%s): %s\n%s", f.Tool, f.Script, f.Status, strings.TrimRight(f.Diff, "\n"))
}

// Check runs every script of s (parity.RunSuite) and returns the tools whose parity
// did not hold, in run order; err is a suite that could not run at all (no scripts).
func Check(s parity.Suite, opts Config) (results parity.Results, failures []Failure, err error) {
	results, err = parity.RunSuite(s, nil)
	if err != nil {
		return results, nil, err
	}
	if len(results.Tools) == 0 {
		return results, nil, fmt.Errorf("paritytest: no parity script in %s", s.Dir)
	}
	for _, r := range results.Tools {
		switch {
		case r.Status == parity.StatusPass:
		case r.Status == parity.StatusInProgress && opts.AllowInProgress:
		default:
			failures = append(failures, Failure{Tool: r.Tool, Script: r.Script, Status: r.Status, Diff: r.Diff})
		}
	}
	return results, failures, nil
}

// Run is Check reported on t: one subtest per tool, failing with its difference.
func Run(t *testing.T, s parity.Suite, opts Config) {
	t.Helper()
	results, failures, err := Check(s, opts)
	if err != nil {
		t.Fatal(err)
	}
	failed := map[string]Failure{}
	for _, f := range failures {
		failed[f.Tool] = f
	}
	for _, r := range results.Tools {
		t.Run(r.Tool, func(t *testing.T) {
			if f, ok := failed[r.Tool]; ok {
				t.Error(f.String())
				return
			}
			if r.Status == parity.StatusInProgress {
				t.Logf("%s is in progress: its native handler still answers NOT_IMPLEMENTED", r.Tool)
				return
			}
			t.Logf("%s: %s on %s", r.Tool, r.Status, r.LaneText())
		})
	}
}
