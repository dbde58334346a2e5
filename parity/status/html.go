package status

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
)

//go:embed page.html.tmpl
var pageSource string

var pageTemplate = template.Must(template.New("page").Parse(pageSource))

// Sort ranks put the rows needing attention first in ascending order.
var (
	parityRank = map[string]int{ParityFail: 0, ParityError: 1, ParityNone: 2, ParityPass: 3}
	stageRank  = map[string]int{StageNativeWithoutParity: 0, StageAdapter: 1, StageShadow: 2, StageNativeWithParity: 3, StageNativeOnly: 4}
)

// page is what the template sees: the report plus values shaped for markup.
type page struct {
	Report
	Generated string
	RunAt     string
	Segments  []segment
	Rows      []row
}

// segment is one part of the stacked migration bar.
type segment struct {
	Class, Label string
	Count        int
	Width        string // percent of the commands, as CSS wants it
}

type row struct {
	ToolStatus
	ParityRank, StageRank int
	Last                  string
	Search                string
	DiffLines             []diffLine
	DiffSize              string // "1 line", "8 lines"
}

// diffLine is one line of a diff with the class that colours it.
type diffLine struct{ Class, Text string }

// WriteHTML writes the report as one self-contained HTML page: a migration progress bar,
// a sortable and filterable table, and each failing tool's diff folded under its row.
// The page reads "#sort=KEY" (or "-KEY" for descending) and "filter=TEXT" from its URL
// fragment on load, and keeps the fragment current, so a view can be linked.
func WriteHTML(w io.Writer, r Report) error {
	p := page{Report: r, Generated: stamp(&r.GeneratedAt), RunAt: stamp(r.Results.RunAt)}
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
		rw := row{ToolStatus: ts, ParityRank: parityRank[ts.Parity], StageRank: stageRank[ts.Stage], Last: stamp(ts.LastParity)}
		if ts.LastParity == nil {
			rw.Last = ""
		}
		words := []string{ts.Name, ts.Domain, ts.Route, ts.Stage, ts.Parity, ts.Tier}
		if len(ts.Warnings) > 0 {
			words = append(words, "warning")
		}
		rw.Search = strings.ToLower(strings.Join(words, " "))
		if ts.Diff != "" {
			rw.DiffLines = diffLines(ts.Diff)
			rw.DiffSize = fmt.Sprintf("%d lines", len(rw.DiffLines))
			if len(rw.DiffLines) == 1 {
				rw.DiffSize = "1 line"
			}
		}
		p.Rows = append(p.Rows, rw)
	}
	if err := pageTemplate.Execute(w, p); err != nil {
		return fmt.Errorf("status html: %w", err)
	}
	return nil
}

// diffLines classifies unified-diff lines so the page can colour them.
func diffLines(diff string) []diffLine {
	lines := strings.Split(strings.TrimRight(diff, "\n"), "\n")
	out := make([]diffLine, len(lines))
	for i, l := range lines {
		c := ""
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"), strings.HasPrefix(l, "@@"):
			c = "d-hunk"
		case strings.HasPrefix(l, "+"):
			c = "d-add"
		case strings.HasPrefix(l, "-"):
			c = "d-del"
		}
		out[i] = diffLine{Class: c, Text: l}
	}
	return out
}
