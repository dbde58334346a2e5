package agent

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "agent:session",
		New: newAgentSessionApp, Main: convention.Main(newAgentSessionApp)})
}

func newAgentSessionApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "agent:session",
		Usage: "Start an agent session on a WU (runtime state in .lumenflow/sessions/current.json)",
		Flags: []cli.Flag{
			convention.WU("wu", "the WU the session works on", true),
			requiredInt(convention.Int("tier", "context tier", 0, convention.Bound(1), convention.Bound(3))),
			&cli.StringFlag{Name: "agent-type", Usage: "agent type, also recorded as client type", Value: "claude-code"},
		},
		Action: agentSession,
	})
}

// requiredInt marks an INT flag required (it has no meaningful default).
func requiredInt(f *cli.IntFlag) *cli.IntFlag {
	f.Required = true
	return f
}

func agentSession(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	data, notes, err := ops.AgentSession(c.Context(), ws, c.Runtime(),
		ops.AgentSessionInput{WU: c.Value("wu"), Tier: c.Int("tier"), AgentType: c.String("agent-type")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Result(notes.Headline, data)
}
