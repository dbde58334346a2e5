package workspace

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "backlog:status", Domain: "workspace",
		New: newBacklogStatusApp, Main: convention.Main(newBacklogStatusApp)})
}

func newBacklogStatusApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "backlog:status",
		Usage:    "Show the board of WUs by lane and status",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "lane", Usage: "only this lane"},
			convention.Enums("status", "list only WUs with this status", ops.BoardStatuses...),
			&cli.BoolFlag{Name: "include-done", Usage: "also list done and closed WUs (they are always counted)"},
		},
		Action: backlogStatus,
	})
}

func backlogStatus(c *convention.Call) error {
	in := ops.BacklogStatusInput{Statuses: c.Strings("status"), IncludeDone: c.Bool("include-done")}
	if c.IsSet("lane") {
		lane := c.String("lane")
		in.Lane = &lane
	}
	ws, err := c.Workspace(ops.BacklogKeys...)
	if err != nil {
		return err
	}
	b, notes, err := ops.BacklogStatus(c.Context(), ws, in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Print(notes.Text, b)
}
