package memory

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

func init() {
	commands.Register(commands.Command{Name: "mem:signal", Domain: "memory",
		New: newMemSignalApp, Main: convention.Main(newMemSignalApp)})
}

func newMemSignalApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "mem:signal",
		Usage: "Send a coordination signal to other agents",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "message", Usage: "signal text (non-empty once trimmed)", Required: true},
			convention.WU("wu", "work unit the signal is about (default: the current session's)", false),
			&cli.StringFlag{Name: "lane", Usage: "lane the signal is about"},
			&cli.StringFlag{Name: "type", Usage: "signal type", Value: delivery.DefaultSignalType},
			&cli.StringFlag{Name: "sender", Usage: "who sends it", Value: delivery.DefaultSignalSender},
			&cli.StringFlag{Name: "target-agent", Usage: "agent the signal is for"},
		},
		Action: memSignal,
	})
}

func memSignal(c *convention.Call) error {
	message := strings.TrimSpace(c.String("message"))
	if message == "" {
		return c.Failf(tool.CodeValidation, "--message must not be empty")
	}
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	wu, _ := sessionDefaults(c, ws, c.Value("wu"), "")
	sig, err := delivery.SendSignal(ws.Root, c.Runtime(), delivery.SignalInput{Message: message, Type: c.String("type"),
		Sender: c.String("sender"), WUID: wu, Lane: c.String("lane"), TargetAgent: c.String("target-agent")})
	if err != nil {
		return err
	}
	return c.Result("Signal "+sig.ID+" sent", memSignalData{Signal: sig})
}

// memSignalData is mem:signal's JSON data.
type memSignalData struct {
	Signal delivery.Signal `json:"signal"`
}
