package memory

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "mem:checkpoint", Domain: "memory",
		New: newMemCheckpointApp, Main: convention.Main(newMemCheckpointApp)})
}

func newMemCheckpointApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "mem:checkpoint",
		Usage: "Record a progress checkpoint as a memory node (and a WU checkpoint event)",
		Flags: []cli.Flag{
			convention.NonBlank(&cli.StringFlag{Name: "note", Usage: "what was achieved (non-empty)", Required: true}),
			convention.WU("wu", "work unit (default: the current session's)", false),
			&cli.StringFlag{Name: "session", Usage: "session uuid (default: the current session's)"},
			&cli.StringFlag{Name: "progress", Usage: "progress summary"},
			&cli.StringFlag{Name: "next-steps", Usage: "what comes next"},
		},
		Action: memCheckpoint,
	})
}

func memCheckpoint(c *convention.Call) error {
	in := ops.MemCheckpointInput{Note: c.String("note"), WU: c.Value("wu"), Session: c.String("session"),
		Progress: c.String("progress"), NextSteps: c.String("next-steps"), Caller: c.Getenv(tool.CallerEnv)}
	if err := in.Check(); err != nil {
		return err
	}
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	data, notes, err := ops.MemCheckpoint(c.Context(), ws, c.Runtime(), in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Result(notes.Headline, data)
}
