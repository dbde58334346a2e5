package status

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/cmdbridge/cmdbridge/internal/lazyregexp"
)

//go:embed page.html.tmpl
var pageSource string

// pageTemplate is parsed the first time a page is written: a program that links the
// status report but never writes HTML (an adopter's ordinary run) never parses it.
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(template.FuncMap{
		"shared":    sharedList,
		"pathParts": func(p string) []string { return strings.Split(p, "/") },
	}).Parse(pageSource))
})

// sharedList shows at most three shared calls ("delivery.ReadWU, ops.MemSignal, …").
func sharedList(calls []string) string {
	if len(calls) > 3 {
		return strings.Join(calls[:3], ", ") + ", …"
	}
	return strings.Join(calls, ", ")
}

// Sort ranks put the rows needing attention first in ascending order. A state or stage
// the maps do not know (one added to the model later) sorts at its map's "other" rank and
// is shown as its own string.
var (
	parityRank = map[string]int{ParityFail: 0, ParityError: 1, ParityInProgress: 2, ParityNone: 3, ParityPass: 4}
	stageRank  = map[string]int{StageNativeWithoutParity: 0, StageAdapter: 1, StageShadow: 3, StageNativeWithParity: 4, StageNativeOnly: 5}
)

// otherRank is the rank of a state or stage the maps above do not name: after the
// failures, before none and shadow.
const otherRank = 2

func rankOf(m map[string]int, key string) int {
	if r, ok := m[key]; ok {
		return r
	}
	return otherRank
}

// classSafe turns a state into a CSS class suffix ("in progress" -> "in-progress").
func classSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '-'
	}, s)
}

// nextShown is how many "Migrate next" candidates the page lists before folding the rest.
const nextShown = 10

// page is what the template sees: the report plus values shaped for markup.
type page struct {
	Report
	Generated string
	RunAt     string
	Segments  []segment
	Rows      []row
	// NextTop are the first nextShown candidates to migrate, NextMore the rest (folded).
	NextTop, NextMore []Candidate
	// Scoring restates the score's weights for the section's legend.
	Scoring scoring
}

type scoring struct{ Goldens, Parity, Size, SizeReference, Shared, Package int }

// segment is one part of the stacked migration bar.
type segment struct {
	Class, Label string
	Count        int
	Width        string // percent of the commands, as CSS wants it
}

type row struct {
	ToolStatus
	ParityRank, StageRank   int
	ParityClass, StageClass string
	Last                    string
	LastParts               [2]string // Last's date and time, shown on two lines when narrow
	Search                  string
	// DiffLines are the difference (the failure with its want/got or unified diff), shown
	// first; LogLines the whole script log, folded under it (empty when the diff is only
	// the difference).
	DiffLines []diffLine
	DiffSize  string // "1 line", "8 lines"
	LogLines  []diffLine
	LogSize   string
}

// diffLine is one line of a diff with the class that colours it.
type diffLine struct{ Class, Text string }

func lineCount(n int) string {
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}

// WriteHTML writes the report as one self-contained HTML page: a migration progress bar,
// a sortable and filterable table, and each failing tool's diff folded under its row.
// The page reads "#sort=KEY" (or "-KEY" for descending) and "filter=TEXT" from its URL
// fragment on load, and keeps the fragment current, so a view can be linked.
func WriteHTML(w io.Writer, r Report) error {
	p := page{Report: r, Generated: stamp(&r.GeneratedAt), RunAt: stamp(r.Results.RunAt),
		Scoring: scoring{ScoreGoldens, ScoreParity, ScoreSize, SizeReference, ScoreShared, ScorePackage}}
	p.NextTop = r.MigrateNext
	if len(p.NextTop) > nextShown {
		p.NextTop, p.NextMore = r.MigrateNext[:nextShown], r.MigrateNext[nextShown:]
	}
	t := r.Totals
	for _, s := range []segment{
		{Class: "s-native", Label: "native with parity", Count: t.NativeWithParity},
		{Class: "s-shadow", Label: "shadow", Count: t.Shadow},
		{Class: "s-unproven", Label: "native without parity", Count: t.NativeWithoutParity},
		{Class: "s-adapter", Label: "adapter", Count: t.Adapter},
	} {
		s.Width = strconv.FormatFloat(percent(s.Count, t.Commands), 'f', 1, 64)
		p.Segments = append(p.Segments, s)
	}
	for _, ts := range r.Tools {
		rw := row{ToolStatus: ts, ParityRank: rankOf(parityRank, ts.Parity), StageRank: rankOf(stageRank, ts.Stage),
			ParityClass: classSafe(ts.Parity), StageClass: classSafe(ts.Stage), Last: stamp(ts.LastParity)}
		if date, clock, ok := strings.Cut(rw.Last, "T"); ok {
			rw.LastParts = [2]string{date, clock}
		}
		if ts.LastParity == nil {
			rw.Last = ""
		}
		words := []string{ts.Name, ts.Domain, ts.Route, ts.Stage, ts.Parity, ts.Tier}
		if len(ts.Warnings) > 0 {
			words = append(words, "warning")
		}
		rw.Search = strings.ToLower(strings.Join(words, " "))
		if ts.Diff != "" {
			rw.DiffLines, rw.LogLines = splitDiff(ts.Diff)
			rw.DiffSize, rw.LogSize = lineCount(len(rw.DiffLines)), lineCount(len(rw.LogLines))
		}
		p.Rows = append(p.Rows, rw)
	}
	if err := pageTemplate().Execute(w, p); err != nil {
		return fmt.Errorf("status html: %w", err)
	}
	return nil
}

// splitDiff classifies the lines of a parity result's diff and splits out the difference.
// A failing script's diff is its testscript log: the difference is each "FAIL:" line with
// the lines that continue it (the field diffs: want/got lines, unified diffs), preceded
// by the command that failed and by a unified diff logged just before it (cmptree logs
// one), and log is every line. A diff without a FAIL line (an error message) is all
// difference, with no log.
func splitDiff(diff string) (difference, log []diffLine) {
	lines := strings.Split(strings.TrimRight(diff, "\n"), "\n")
	all := make([]diffLine, len(lines))
	for i, l := range lines {
		all[i] = diffLine{Class: lineClass(l), Text: l}
	}
	keep := make([]bool, len(lines))
	found := false
	for i := 0; i < len(lines); i++ {
		if !isFail(lines[i]) {
			continue
		}
		found = true
		end := i + 1
		for end < len(lines) && !isLogEntry(lines[end]) && !isFail(lines[end]) {
			end++
		}
		start := i
		entry := i - 1 // the log entry the failure belongs to
		for entry >= 0 && !isLogEntry(lines[entry]) && !isFail(lines[entry]) {
			entry--
		}
		for k := entry + 1; k+1 < i; k++ {
			if strings.HasPrefix(lines[k], "--- ") && strings.HasPrefix(lines[k+1], "+++ ") {
				start = k
				break
			}
		}
		for c := entry; c >= 0 && !isFail(lines[c]); c-- {
			if strings.HasPrefix(lines[c], "> ") {
				keep[c] = true
				break
			}
		}
		for k := start; k < end; k++ {
			keep[k] = true
		}
		i = end - 1
	}
	if !found {
		return all, nil
	}
	for i, k := range keep {
		if k {
			difference = append(difference, all[i])
		}
	}
	return difference, all
}

// isFail is testscript's failure line ("FAIL: file:line: message").
func isFail(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "FAIL:") }

// isLogEntry is a line that starts a testscript log entry: a command ("> exec …"), a
// comment section ("# setup (0.01s)") or an output header ("[stdout]", "[exit status 1]").
func isLogEntry(l string) bool {
	return strings.HasPrefix(l, "> ") || strings.HasPrefix(l, "# ") ||
		strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]")
}

// lineClass is the class that colours one line of a diff or log: failures, want/got
// field lines, unified-diff lines (also when indented, as parity indents them), the
// header naming a differing field, and the log's commands and sections.
func lineClass(l string) string {
	t := strings.TrimSpace(l)
	switch {
	case strings.HasPrefix(t, "FAIL"):
		return "d-fail"
	case strings.HasPrefix(t, "want:"):
		return "d-want"
	case strings.HasPrefix(t, "got:"):
		return "d-got"
	case strings.HasPrefix(l, "> "):
		return "d-cmd"
	case isLogEntry(l):
		return "d-sec"
	case fieldHeader.MatchString(l):
		return "d-field"
	}
	u := l
	for i := 0; i < 4 && strings.HasPrefix(u, " "); i++ {
		u = u[1:]
	}
	switch {
	case strings.HasPrefix(u, "+++ "), strings.HasPrefix(u, "--- "), strings.HasPrefix(u, "@@"):
		return "d-hunk"
	case strings.HasPrefix(u, "+"):
		return "d-add"
	case strings.HasPrefix(u, "-"):
		return "d-del"
	}
	return ""
}

// fieldHeader is compare.Diff's header line: "subprocess/native output /data/status".
var fieldHeader = lazyregexp.New(`^\S+/\S+ (output|stream|tree) \S`)
