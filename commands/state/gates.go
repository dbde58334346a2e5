package state

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
	commands.Register(legacy.Command{Name: "gates", Domain: "state",
		New: newGatesApp, Main: convention.Main(newGatesApp)})
}

func newGatesApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "gates",
		Usage: "Run the configured gate commands in the checkout that contains the current directory",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "docs-only", Usage: "run only the docs_only gates"},
			&cli.StringSliceFlag{Name: "only", Usage: "run only this gate (repeatable)"},
		},
		RunsCode: true,
		Action:   gates,
	})
}

// gates is the shell around ops.Gates.
func gates(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	if err := ws.Config.Check(ops.GatesKeys...); err != nil {
		return err
	}
	data, notes, err := ops.Gates(c.Context(), ws, c.Runtime(), ops.GatesInput{DocsOnly: c.Bool("docs-only"),
		Only: c.Strings("only"), Output: c.Stderr()})
	c.Notes(notes)
	if err != nil && delivery.AsError(err).Code == tool.CodeGatesFailed {
		return c.FailReporting(err, notes.Text, data)
	}
	if err != nil {
		return err
	}
	return c.Print(notes.Text, data)
}
