package memory

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "mem:start", Domain: "memory",
		New: newMemStartApp, Main: convention.Main(newMemStartApp)})
}

func newMemStartApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "mem:start",
		Usage: "Record the start of an agent session on a WU as a memory node",
		Flags: []cli.Flag{
			convention.WU("wu", "work unit the session works on", true),
			&cli.StringFlag{Name: "agent-type", Usage: "kind of agent", Value: "unknown"},
			&cli.StringFlag{Name: "context-tier", Usage: "context tier the agent loaded", Value: "full"},
		},
		Action: memStart,
	})
}

func memStart(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	data, notes, err := ops.MemStart(c.Context(), ws, c.Runtime(), ops.MemStartInput{WU: c.Value("wu"),
		AgentType: c.String("agent-type"), ContextTier: c.String("context-tier")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Result(notes.Headline, data)
}
