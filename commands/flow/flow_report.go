package flow

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "flow:report",
		New: newFlowReportApp, Main: convention.Main(newFlowReportApp)})
}

func newFlowReportApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "flow:report",
		Usage:    "Report gate pass rates and completed WUs over a window of days or dates",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.Date("start", "first day of the window (then --days is ignored)"),
			convention.Date("end", "last day of the window (default today)"),
			convention.Int("days", "window length in days, ending now", 7, nil, nil),
		},
		Action: flowReport,
	})
}

func flowReport(c *convention.Call) error {
	win, err := ops.FlowReportWindow(ops.FlowReportInput{Start: flagDate(c, "start"), End: flagDate(c, "end"), Days: c.Int("days"), Now: c.Runtime().Now()})
	if err != nil {
		return err
	}
	ws, err := open(c)
	if err != nil {
		return err
	}
	r, notes, err := ops.FlowReport(c.Context(), ws, win)
	c.Notes(notes)
	if err != nil {
		return err
	}
	if c.JSON {
		return c.Print("", r)
	}
	return c.Print(flowReportText(r), r)
}

// flagDate returns a DATE flag's day at 00:00Z, the zero time when the flag was not given.
func flagDate(c *convention.Call, name string) time.Time {
	t, _ := time.Parse(delivery.DateLayout, c.Value(name))
	return t
}

// flowReportText is the text layout of corpus §3.7.
func flowReportText(r delivery.FlowReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Flow report %s … %s\n", r.Range.Start, r.Range.End)
	g := r.Gates
	fmt.Fprintf(&b, "  gates: %d/%d passed (%s%%), p95 %d ms\n", g.Passed, g.Total, num(g.PassRate), g.P95DurationMS)
	names := make([]string, 0, len(g.ByName))
	for n := range g.ByName {
		names = append(names, n)
	}
	sort.Strings(names)
	rows := make([][]string, 0, len(names))
	for _, n := range names {
		s := g.ByName[n]
		rows = append(rows, []string{n, strconv.Itoa(s.Total), strconv.Itoa(s.Passed), strconv.Itoa(s.Failed), num(s.PassRate)})
	}
	b.WriteString(convention.Table("gate runs", []string{"gate", "total", "passed", "failed", "pass%"}, rows))
	fmt.Fprintf(&b, "  completed WUs: %d\n", r.WUs.Completed)
	rows = rows[:0]
	for _, w := range r.WUs.List {
		rows = append(rows, []string{w.ID, w.Completed, w.Lane, w.Title})
	}
	b.WriteString(convention.Table("completed WUs", []string{"wu", "completed", "lane", "title"}, rows))
	return b.String()
}

// num renders a report figure the way its JSON number reads (62.5, 100, 0).
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
