package bridgecheck

import (
	"fmt"
	"go/token"
	"io"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/cmdbridge/cmdbridge/bridgecheck/internal/scope"
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
}

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
// order, and says so when no package was checked: a run over packages that are neither
// legacy command packages nor native tool packages is never a silent success.
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
	if r.Legacy == 0 && r.Native == 0 {
		_, err := fmt.Fprintf(w, "bridgecheck: no legacy command packages (none registers a command) and no native tool packages found in %s; nothing checked\n",
			strings.Join(patterns, " "))
		return err
	}
	return nil
}
