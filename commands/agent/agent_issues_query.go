package agent

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
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
	data, notes, err := ops.AgentIssuesQuery(c.Context(), ws, ops.AgentIssuesQueryInput{Since: c.Int("since"),
		Category: c.String("category"), Severity: c.Value("severity"), Now: c.Runtime().Now()})
	c.Notes(notes)
	if err != nil {
		return err
	}
	if c.JSON {
		return c.Print("", data)
	}
	return c.Print(notes.Text, data)
}
