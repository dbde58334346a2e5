package agent

import (
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "agent:issues-query",
		New: newAgentIssuesQueryApp, Main: convention.Main(newAgentIssuesQueryApp)})
}

func newAgentIssuesQueryApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "agent:issues-query",
		Usage:    "Summarise the incidents logged by agent:log-issue over the last days",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.Int("since", "days to look back", 7, nil, nil),
			&cli.StringFlag{Name: "category", Usage: "only this category"},
			convention.Enum("severity", "only this severity", "", delivery.IncidentSeverities...),
		},
		Action: agentIssuesQuery,
	})
}

func agentIssuesQuery(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	all, warnings, err := delivery.ReadIncidents(ws.Root)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		c.Warn("%s", w)
	}
	days := c.Int("since")
	since := c.Runtime().Now().Add(-time.Duration(days) * 24 * time.Hour)
	sum := delivery.QueryIncidents(all, delivery.IncidentQuery{Since: since, Category: c.String("category"), Severity: c.Value("severity")})
	data := issuesData{Total: sum.Total, ByCategory: counts(sum.ByCategory), BySeverity: counts(sum.BySeverity), Recent: sum.Recent}
	if c.JSON {
		return c.Print("", data)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d issue(s) in the last %d day(s)\n", sum.Total, days)
	b.WriteString("By category:\n")
	for _, n := range sum.ByCategory {
		fmt.Fprintf(&b, "  %s: %d\n", n.Name, n.N)
	}
	b.WriteString("By severity:\n")
	for _, n := range sum.BySeverity {
		fmt.Fprintf(&b, "  %s: %d\n", n.Name, n.N)
	}
	b.WriteString("Recent:\n")
	for _, i := range sum.Recent {
		fmt.Fprintf(&b, "  %s  %s  %s  %s\n", i.Timestamp, i.Severity, i.Category, i.Title)
	}
	return c.Print(b.String(), data)
}

// counts keeps the summary's order (descending count, then name) in the JSON object.
func counts(cs []delivery.Count) *convention.OrderedMap {
	m := &convention.OrderedMap{}
	for _, n := range cs {
		m.Set(n.Name, n.N)
	}
	return m
}

// issuesData is agent:issues-query's JSON data.
type issuesData struct {
	Total      int                    `json:"total"`
	ByCategory *convention.OrderedMap `json:"by_category"`
	BySeverity *convention.OrderedMap `json:"by_severity"`
	Recent     []delivery.Incident    `json:"recent"`
}
