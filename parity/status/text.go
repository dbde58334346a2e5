package status

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// WriteJSON writes the report as indented JSON (the documented structure of Report).
func WriteJSON(w io.Writer, r Report) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("status json: %w", err)
	}
	return nil
}

// WriteText writes an aligned table, one tool per line ("(!)" after the name of a tool
// with schema warnings), then where the parity results came from, the warnings, the five
// adapter commands to migrate next, and the totals.
func WriteText(w io.Writer, r Report) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tROUTE\tSTAGE\tPARITY\tGOLDENS\tPARITY SCRIPT\tTIER\tLAST PARITY")
	for _, t := range r.Tools {
		script := "-"
		if t.ParityScriptExists {
			script = "yes"
		}
		name := t.Name
		if len(t.Warnings) > 0 {
			name += " (!)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\n",
			name, t.Route, t.Stage, t.Parity, t.GoldenScripts, script, t.Tier, stamp(t.LastParity))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("status text: %w", err)
	}
	var b strings.Builder
	b.WriteString("\n")
	if r.Results.Found {
		fmt.Fprintf(&b, "parity results: %s (run %s)\n", r.Results.Path, stamp(r.Results.RunAt))
	} else {
		fmt.Fprintf(&b, "parity results: %s not found, so every tool's parity is none (run %s)\n", r.Results.Path, r.ParityCommand)
	}
	if len(r.Results.UnknownTools) > 0 {
		fmt.Fprintf(&b, "results for unregistered tools: %s\n", strings.Join(r.Results.UnknownTools, ", "))
	}
	var failing, inProgress []string
	for _, t := range r.Tools {
		switch t.Parity {
		case ParityFail, ParityError:
			failing = append(failing, t.Name+" ("+t.Parity+")")
		case ParityInProgress:
			inProgress = append(inProgress, t.Name)
		}
	}
	if len(failing) > 0 {
		fmt.Fprintf(&b, "failing parity: %s; see the diffs with --json or --html\n", strings.Join(failing, ", "))
	}
	if len(inProgress) > 0 {
		fmt.Fprintf(&b, "in progress (scaffolded; the native handler answers NOT_IMPLEMENTED until it is written): %s; see the diffs with --json or --html\n",
			strings.Join(inProgress, ", "))
	}
	if r.Totals.SchemaWarnings > 0 {
		fmt.Fprintf(&b, "(!) schema warnings (%d tools; see docs/schemas.md):\n", r.Totals.SchemaWarnings)
		for _, t := range r.Tools {
			for _, w := range t.Warnings {
				fmt.Fprintf(&b, "  %s: %s\n", t.Name, w)
			}
		}
	}
	writeMigrateNext(&b, r.MigrateNext, 5)
	writeShadows(&b, r)
	t := r.Totals
	fmt.Fprintf(&b, "parity: %d pass, %d fail, %d error, %d in progress, %d none\n",
		t.Parity.Pass, t.Parity.Fail, t.Parity.Error, t.Parity.InProgress, t.Parity.None)
	fmt.Fprintf(&b, "totals: %d tools; of %d commands, %d native with parity (%.1f%%), %d native without, %d shadow, %d adapter; %d native-only\n",
		t.Tools, t.Commands, t.NativeWithParity, t.ProgressPercent, t.NativeWithoutParity, t.Shadow, t.Adapter, t.NativeOnly)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("status text: %w", err)
	}
	return nil
}

// writeMigrateNext writes the first n candidates under a heading that says how they are
// scored.
func writeMigrateNext(b *strings.Builder, list []Candidate, n int) {
	if len(list) == 0 {
		return
	}
	if len(list) > n {
		fmt.Fprintf(b, "migrate next (top %d of %d adapter commands; score of 100 = goldens %d + parity script %d + size %d + shared calls %d + same package %d):\n",
			n, len(list), ScoreGoldens, ScoreParity, ScoreSize, ScoreShared, ScorePackage)
		list = list[:n]
	} else {
		fmt.Fprintf(b, "migrate next (%d adapter commands; score of 100 = goldens %d + parity script %d + size %d + shared calls %d + same package %d):\n",
			len(list), ScoreGoldens, ScoreParity, ScoreSize, ScoreShared, ScorePackage)
	}
	tw := tabwriter.NewWriter(b, 0, 8, 2, ' ', 0)
	for _, c := range list {
		fmt.Fprintf(tw, "  %d. %s\t%.1f\t%s\n", c.Rank, c.Name, c.Score, c.Why())
	}
	_ = tw.Flush() // a strings.Builder does not fail
}

func stamp(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}
