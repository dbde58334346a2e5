package initiative

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "initiative:remove-wu",
		New: newInitiativeRemoveWUApp, Main: convention.Main(newInitiativeRemoveWUApp)})
}

func newInitiativeRemoveWUApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "initiative:remove-wu",
		Usage: "Unlink a WU from an initiative (both sides) and commit",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "initiative", Usage: "initiative id or slug", Required: true},
			convention.WU("wu", "WU to unlink", true),
		},
		Destructive: true,
		Action:      initiativeRemoveWU,
	})
}

func initiativeRemoveWU(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.InitiativeRemoveWU(c.Context(), ws, c.Runtime(),
		ops.InitiativeRemoveWUInput{Initiative: c.String("initiative"), WU: c.Value("wu")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.OpsResult(notes.Headline, data, data.Commit, "")
}
