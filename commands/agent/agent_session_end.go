package agent

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "agent:session-end",
		New: newAgentSessionEndApp, Main: convention.Main(newAgentSessionEndApp)})
}

func newAgentSessionEndApp() *cli.App {
	return convention.App(convention.Spec{
		Name:       "agent:session-end",
		Usage:      "End the active agent session and report its incident counters",
		Idempotent: true,
		Action:     agentSessionEnd,
	})
}

func agentSessionEnd(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	data, notes, err := ops.AgentSessionEnd(c.Context(), ws, c.Runtime())
	c.Notes(notes)
	if err != nil {
		return err
	}
	if !data.Ended {
		return c.Print(notes.Text, data)
	}
	return c.Result(notes.Headline, data)
}
