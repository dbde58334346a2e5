package wu

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
	commands.Register(legacy.Command{Name: "wu:validate",
		New: newWUValidateApp, Main: convention.Main(newWUValidateApp)})
}

func newWUValidateApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "wu:validate",
		Usage:    "Validate one WU spec",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.WU("id", "WU to validate", true),
			&cli.BoolFlag{Name: "no-strict", Usage: "structural checks only"},
		},
		Action: wuValidate,
	})
}

func wuValidate(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.WUValidate(c.Context(), ws, ops.WUValidateInput{ID: c.Value("id"), NoStrict: c.Bool("no-strict")})
	if err == nil {
		return c.Print(notes.Text, data)
	}
	if delivery.AsError(err).Code != tool.CodeCheckFailed {
		return err // the WU could not be read: nothing was checked
	}
	// A check command reports what it found on stdout even when it fails.
	if !c.JSON {
		if err := c.Print(notes.Text, nil); err != nil {
			return err
		}
	}
	c.Partial(data)
	return err
}
