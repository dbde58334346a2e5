package workspace

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
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
			convention.Enums("status", "list only WUs with this status", boardStatuses...),
			&cli.BoolFlag{Name: "include-done", Usage: "also list done and closed WUs (they are always counted)"},
		},
		Action: backlogStatus,
	})
}

func backlogStatus(c *convention.Call) error {
	statuses := c.Strings("status")
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	if err := ws.Config.Check("software_delivery.directories", "software_delivery.lanes"); err != nil {
		return err
	}
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return err
	}
	log, err := delivery.LoadEvents(ws.Root)
	if err != nil {
		return err
	}
	for _, w := range log.Warnings() {
		c.Warn("%s", w)
	}
	lane := c.String("lane")
	var wus []*delivery.WU
	for _, f := range files {
		if f.Err != nil {
			c.Warn("%s skipped: %v", f.ID, f.Err)
			continue
		}
		if c.IsSet("lane") && f.WU.Lane != lane {
			continue
		}
		wus = append(wus, f.WU)
	}
	includeDone := c.Bool("include-done")
	list := func(w *delivery.WU) bool {
		s := w.NormStatus()
		if len(statuses) > 0 {
			return slices.Contains(statuses, s)
		}
		return includeDone || (s != delivery.StatusDone && s != delivery.StatusClosed)
	}
	cfg := *ws.Config
	if c.IsSet("lane") {
		cfg.Lanes = slices.DeleteFunc(slices.Clone(cfg.Lanes), func(l delivery.LaneDef) bool { return l.Name != lane })
	}
	b := delivery.BuildBoard(&cfg, wus, log.Replay(), list)
	if c.JSON {
		return c.Print("", b)
	}
	var out strings.Builder
	for _, l := range b.Lanes {
		fmt.Fprintf(&out, "%s (wip %d/%d)\n", l.Lane, l.Counts.InProgress, l.WIPLimit)
		for _, w := range l.WUs {
			mark := ""
			if !w.Consistent {
				mark = " [!]"
			}
			fmt.Fprintf(&out, "  %s  %s  %s  %s%s\n", w.Status, w.ID, w.Priority, w.Title, mark)
		}
	}
	t := b.Totals
	fmt.Fprintf(&out, "ready %d  in_progress %d  blocked %d  done %d  closed %d\n", t.Ready, t.InProgress, t.Blocked, t.Done, t.Closed)
	return c.Print(out.String(), b)
}

// boardStatuses are the normalised statuses --status accepts.
var boardStatuses = []string{delivery.StatusReady, delivery.StatusInProgress, delivery.StatusBlocked,
	delivery.StatusDone, delivery.StatusClosed}
