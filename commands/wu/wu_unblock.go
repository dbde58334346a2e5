package wu

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:unblock",
		New: newWUUnblockApp, Main: convention.Main(newWUUnblockApp)})
}

func newWUUnblockApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:unblock",
		Usage: "Return a blocked WU to in_progress",
		Flags: []cli.Flag{
			convention.WU("id", "WU to unblock", true),
			&cli.StringFlag{Name: "reason", Usage: "why the WU can continue (added to its notes)"},
		},
		Action: wuUnblock,
	})
}

func wuUnblock(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.WUUnblock(c.Context(), ws, c.Runtime(), ops.WUUnblockInput{ID: c.Value("id"),
		Reason: c.String("reason")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.OpsResult(notes.Headline, data, data.Commit, "")
}
