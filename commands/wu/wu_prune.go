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
	commands.Register(legacy.Command{Name: "wu:prune",
		New: newWUPruneApp, Main: convention.Main(newWUPruneApp)})
}

func newWUPruneApp() *cli.App {
	return convention.App(convention.Spec{
		Name:        "wu:prune",
		Usage:       "Classify the WU worktrees and, with --execute, remove the stale ones of done WUs",
		Destructive: true,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "execute", Usage: "act (the default is a read-only dry run)"},
		},
		Effects: []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("execute"))},
		Action:  wuPrune,
	})
}

// wuPrune is the shell around ops.WUPrune: the data as a table.
func wuPrune(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.WUPrune(c.Context(), ws, c.Runtime(), c.Bool("execute"))
	c.Notes(notes)
	if err != nil {
		return err
	}
	var rows [][]string
	for _, e := range data.Worktrees {
		rows = append(rows, e.Row())
	}
	return c.Print(convention.Table("worktrees", ops.PruneHeader, rows), data)
}
