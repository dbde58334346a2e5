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
	commands.Register(legacy.Command{Name: "agent:log-issue",
		New: newAgentLogIssueApp, Main: convention.Main(newAgentLogIssueApp)})
}

func newAgentLogIssueApp() *cli.App {
	category := convention.Enum("category", "incident category", "", delivery.IncidentCategories...)
	category.Required = true
	severity := convention.Enum("severity", "incident severity", "", delivery.IncidentSeverities...)
	severity.Required = true
	return convention.App(convention.Spec{
		Name:  "agent:log-issue",
		Paths: map[string]string{"file": "none"}, // recorded in the incident, never opened
		Usage: "Log an incident of the active agent session",
		Flags: []cli.Flag{
			category,
			severity,
			convention.Keywords(&cli.StringFlag{Name: "title", Usage: "short title (5 to 100 characters)", Required: true}, 5, 100, ""),
			convention.Keywords(&cli.StringFlag{Name: "description", Usage: "what happened (10 to 2000 characters)", Required: true}, 10, 2000, ""),
			&cli.StringFlag{Name: "resolution", Usage: "how it was resolved"},
			&cli.StringSliceFlag{Name: "tag", Usage: "tag (repeatable)"},
			&cli.StringFlag{Name: "step", Usage: "the workflow step the agent was in"},
			&cli.StringSliceFlag{Name: "file", Usage: "a related file (repeatable)"},
		},
		Action: agentLogIssue,
	})
}

func agentLogIssue(c *convention.Call) error {
	ws, err := c.Workspace() // starts the call's journal: a failure rolls the writes back
	if err != nil {
		return err
	}
	data, notes, err := ops.AgentLogIssue(c.Context(), ws, c.Runtime(), ops.AgentLogIssueInput{
		Category: c.Value("category"), Severity: c.Value("severity"),
		Title: c.String("title"), Description: c.String("description"),
		Resolution: c.String("resolution"), Step: c.String("step"),
		Tags: c.Strings("tag"), Files: c.Strings("file"),
	})
	if err != nil {
		return err
	}
	return c.Result(notes.Headline, data)
}
