package initiative

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "initiative:status",
		New: newInitiativeStatusApp, Main: convention.Main(newInitiativeStatusApp)})
}

func newInitiativeStatusApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "initiative:status",
		Usage:    "Show an initiative with its progress, phases and WUs",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.NonEmpty(&cli.StringFlag{Name: "id", Usage: "initiative id or slug (or the positional ID)"}),
		},
		Args: []convention.Arg{{Name: "id", Usage: "initiative id or slug"}},
		// --id or the positional: the action checks that one is given.
		Enforces: []convention.Rule{convention.Required("id")},
		Action:   initiativeStatus,
	})
}

func initiativeStatus(c *convention.Call) error {
	ref := c.String("id")
	if ref == "" {
		ref = c.Arg("id")
	}
	in := ops.InitiativeStatusInput{Ref: ref}
	// The convention's rules cover flags only; flag-or-positional is checked here.
	if err := in.Check(); err != nil {
		return err
	}
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.InitiativeStatus(c.Context(), ws, in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Print(notes.Text, data)
}
