package initiative

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "delegation:list", Domain: "initiative",
		New: newDelegationListApp, Main: convention.Main(newDelegationListApp)})
}

func newDelegationListApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "delegation:list",
		Usage:    "List the delegations of a WU (recursively) or of an initiative as a tree",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.WU("wu", "parent WU", false),
			&cli.StringFlag{Name: "initiative", Usage: "initiative id or slug"},
		},
		Rules: []convention.Rule{
			convention.OneOf("wu", "initiative"),
			convention.Exclusive("wu", "initiative"),
		},
		Action: delegationList,
	})
}

func delegationList(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	in := ops.DelegationListInput{Initiative: c.String("initiative")}
	if c.IsSet("wu") {
		in.WU = c.Value("wu")
	}
	data, notes, err := ops.DelegationList(c.Context(), ws, in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Print(notes.Text, data)
}
