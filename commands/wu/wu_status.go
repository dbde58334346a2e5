package wu

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:status",
		New: newWUStatusApp, Main: convention.Main(newWUStatusApp)})
}

func newWUStatusApp() *cli.App {
	app := convention.App(convention.Spec{
		Name:     "wu:status",
		Usage:    "Show one WU with its event state, lock, worktree and location",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.WU("id", "WU to show (default: inferred from the lane branch)", false),
		},
		Args:   []convention.Arg{{Name: "id"}},
		Action: wuStatus,
	})
	// The positional is a WU too: a malformed one is a usage error, like the flag.
	app.Before = func(cctx *cli.Context) error {
		if id := cctx.Args().First(); id != "" && !delivery.ValidWUID(id) {
			return fmt.Errorf("invalid value %q for ID: expected WU-<number>", id)
		}
		return nil
	}
	return app
}

func wuStatus(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	id := c.Value("id")
	if id == "" {
		id = c.Arg("id")
	}
	data, notes, err := ops.WUStatus(c.Context(), ws, c.Runtime(), ops.WUStatusInput{ID: id})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.OpsResult(notes.Headline, data, nil, notes.Text)
}
