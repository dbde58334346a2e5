package initiative

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "initiative:add-wu",
		New: newInitiativeAddWUApp, Main: convention.Main(newInitiativeAddWUApp)})
}

func newInitiativeAddWUApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "initiative:add-wu",
		Usage: "Link WUs to an initiative (both sides) and commit",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "initiative", Usage: "initiative id or slug", Required: true},
			convention.WUs("wu", "WU id (WU-<n>), once per WU", true),
			convention.Int("phase", "phase of the initiative the WUs belong to", 0, convention.Bound(1), nil),
		},
		Action: initiativeAddWU,
	})
}

func initiativeAddWU(c *convention.Call) error {
	in := ops.InitiativeAddWUInput{Initiative: c.String("initiative"), WUs: c.Strings("wu"), Phase: c.Int("phase")}
	// The --wu values are checked before the workspace is looked for.
	if err := in.Check(); err != nil {
		return err
	}
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.InitiativeAddWU(c.Context(), ws, c.Runtime(), in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.OpsResult(notes.Headline, data, data.Commit, "")
}
