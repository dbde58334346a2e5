package memory

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "mem:signal", Domain: "memory",
		New: newMemSignalApp, Main: convention.Main(newMemSignalApp)})
}

func newMemSignalApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "mem:signal",
		Usage: "Send a coordination signal to other agents",
		Flags: []cli.Flag{
			convention.NonBlank(&cli.StringFlag{Name: "message", Usage: "signal text (non-empty once trimmed)", Required: true}),
			convention.WU("wu", "work unit the signal is about (default: the current session's)", false),
			&cli.StringFlag{Name: "lane", Usage: "lane the signal is about"},
			&cli.StringFlag{Name: "type", Usage: "signal type", Value: delivery.DefaultSignalType},
			&cli.StringFlag{Name: "sender", Usage: "who sends it (through cmdbridge: the authenticated caller, which it may only repeat)", Value: delivery.DefaultSignalSender},
			&cli.StringFlag{Name: "target-agent", Usage: "agent the signal is for"},
		},
		Action: memSignal,
	})
}

func memSignal(c *convention.Call) error {
	in := ops.MemSignalInput{Message: c.String("message"), WU: c.Value("wu"), Lane: c.String("lane"),
		Type: c.String("type"), Sender: c.String("sender"), TargetAgent: c.String("target-agent"),
		Caller: c.Getenv(tool.CallerEnv)}
	if err := in.Check(); err != nil {
		return err
	}
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	data, notes, err := ops.MemSignal(c.Context(), ws, c.Runtime(), in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Result(notes.Headline, data)
}
