package state

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "backlog:prune", Domain: "state",
		New: newBacklogPruneApp, Main: convention.Main(newBacklogPruneApp)})
}

func newBacklogPruneApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "backlog:prune",
		Usage: "Tag stale WUs and report the ones that could be archived (dry run unless --execute)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "execute", Usage: "append the stale note to stale WUs (the default is a dry run)"},
			convention.Int("stale-days-in-progress", "days of inactivity after which an in_progress WU is stale", ops.BacklogPruneStaleInProgress, nil, nil),
			convention.Int("stale-days-ready", "days of inactivity after which a ready WU is stale", ops.BacklogPruneStaleReady, nil, nil),
			convention.Int("archive-days", "days after completion from which a done WU is archivable", ops.BacklogPruneArchiveDays, nil, nil),
		},
		Idempotent: true,
		Effects:    []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("execute"))},
		Action:     backlogPrune,
	})
}

func backlogPrune(c *convention.Call) error {
	ws, err := c.Workspace(ops.BacklogPruneKeys...)
	if err != nil {
		return err
	}
	data, notes, err := ops.BacklogPrune(c.Context(), ws, c.Runtime(), ops.BacklogPruneInput{Execute: c.Bool("execute"),
		StaleInProgress: c.Int("stale-days-in-progress"), StaleReady: c.Int("stale-days-ready"), ArchiveDays: c.Int("archive-days")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	text := convention.Table("stale or archivable WUs", []string{"wu", "status", "days", "category", "title"}, data.Rows) +
		fmt.Sprintf("Total %d, stale %d, archivable %d, healthy %d\n", data.Total, len(data.Stale), len(data.Archivable), data.Healthy)
	if !c.JSON {
		text += convention.CommitLines(convention.OpsCommit(data.Commit))
	}
	return c.Print(text, data)
}
