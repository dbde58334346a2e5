package bridgecheck

import (
	"fmt"
	"go/token"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/cmdbridge/cmdbridge/bridgecheck/internal/scope"
	"github.com/cmdbridge/cmdbridge/bridgecheck/mainlogic"
)

// Report is what [Check] found.
type Report struct {
	// Graph holds one root action per rule family and package; its diagnostics are the
	// findings.
	Graph *checker.Graph
	// Legacy and Native count the packages each rule set applied to.
	Legacy, Native int
	// Diagnostics counts the findings.
	Diagnostics int
	// Notes are what a program's main does that the in-process lane skips, in a package
	// that sets host.Config.Prepare: printed, not counted as findings.
	Notes []string
}

// Nothing reports whether no package was checked: none registers a command, builds an
// app or is a native tool package.
func (r *Report) Nothing() bool { return r.Legacy == 0 && r.Native == 0 }

// Check loads the packages matching patterns, resolved from dir, and runs [Analyzers]
// on them: the standalone driver's work. Packages that fail to load or type-check are
// an error.
func Check(dir string, patterns ...string) (*Report, error) {
	pkgs, err := load(dir, patterns)
	if err != nil {
		return nil, err
	}
	// The scope pass is a root too: only roots keep their results.
	graph, err := checker.Analyze(append([]*analysis.Analyzer{scope.Analyzer}, Analyzers...), pkgs, nil)
	if err != nil {
		return nil, fmt.Errorf("analyse: %w", err)
	}
	r := &Report{Graph: graph}
	for _, act := range graph.Roots {
		if act.Err != nil {
			return nil, fmt.Errorf("analyse %s: %w", act.Package.PkgPath, act.Err)
		}
		r.Diagnostics += len(act.Diagnostics)
		if ml, ok := act.Result.(*mainlogic.Result); ok {
			fset := act.Package.Fset
			for _, n := range ml.Notes {
				prep := fset.Position(ml.Prepare)
				r.Notes = append(r.Notes, fmt.Sprintf("%s: note: [%s] %s: main() does this and the in-process lane skips it; host.Config.Prepare (%s:%d) runs in its place: make sure it does this too",
					fset.Position(n.Pos), n.Rule, n.Subject, filepath.Base(prep.Filename), prep.Line))
			}
		}
		sc, ok := act.Result.(*scope.Scope)
		if !ok {
			continue
		}
		if sc.Legacy {
			r.Legacy++
		}
		if sc.Native {
			r.Native++
		}
	}
	return r, nil
}

// Print writes the findings as file:line:col: message lines, in file and position
// order, then the notes, and says what to pass when no package was checked
// ([Report.Nothing]): a run that checked nothing is never a silent success.
func (r *Report) Print(w io.Writer, patterns []string) error {
	type line struct {
		pos token.Position
		msg string
	}
	var lines []line
	for _, act := range r.Graph.Roots {
		for _, d := range act.Diagnostics {
			lines = append(lines, line{act.Package.Fset.Position(d.Pos), d.Message})
		}
	}
	sort.Slice(lines, func(i, j int) bool {
		a, b := lines[i].pos, lines[j].pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})
	for _, l := range lines {
		if _, err := fmt.Fprintf(w, "%s: %s\n", l.pos, l.msg); err != nil {
			return err
		}
	}
	for _, n := range r.Notes {
		if _, err := fmt.Fprintln(w, n); err != nil {
			return err
		}
	}
	if r.Nothing() {
		_, err := fmt.Fprintf(w, "bridgecheck: %s holds no urfave/cli program (package main building a *cli.App with actions), no package registering or building commands and no native tool package: nothing was checked; pass your program's packages (./... in its module) or -legacy PATTERNS naming the packages whose code your commands run\n",
			strings.Join(patterns, " "))
		return err
	}
	return nil
}
