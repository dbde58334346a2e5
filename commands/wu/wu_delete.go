package wu

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:delete",
		New: newWUDeleteApp, Main: convention.Main(newWUDeleteApp)})
}

func newWUDeleteApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:delete",
		Usage: "Delete WU specs and everything derived from them",
		Flags: []cli.Flag{
			wuList("id", "WU to delete", true),
			&cli.BoolFlag{Name: "dry-run", Usage: "report what would be deleted without deleting"},
		},
		Destructive: true,
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
		Action:      wuDelete,
	})
}

func wuDelete(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.WUDelete(c.Context(), ws, c.Runtime(), ops.WUDeleteInput{IDs: c.Strings("id"), DryRun: c.Bool("dry-run")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.OpsResult(notes.Headline, data, data.Commit, "")
}
