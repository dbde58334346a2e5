package config

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "config:get",
		New: newConfigGetApp, Main: convention.Main(newConfigGetApp)})
}

func newConfigGetApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "config:get",
		Usage:    "Print a workspace.yaml value by dotted key, as the file has it",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.Keywords(&cli.StringFlag{Name: "key", Usage: "dotted path from the root of workspace.yaml, e.g. software_delivery.git.push", Required: true}, 0, 0, ops.ConfigKeyPattern),
		},
		Action: configGet,
	})
}

func configGet(c *convention.Call) error {
	in := ops.ConfigGetInput{Key: c.String("key")}
	if err := in.Check(); err != nil {
		return err
	}
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	data, notes, err := ops.ConfigGet(ws, in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Print(notes.Text, data)
}
