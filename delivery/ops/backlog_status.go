package ops

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// BacklogKeys are the configuration sections backlog:status reads.
var BacklogKeys = []string{"software_delivery.directories", "software_delivery.lanes"}

// BoardStatuses are the normalised statuses backlog:status's --status accepts.
var BoardStatuses = []string{delivery.StatusReady, delivery.StatusInProgress, delivery.StatusBlocked,
	delivery.StatusDone, delivery.StatusClosed}

// BacklogStatusInput is backlog:status's input.
type BacklogStatusInput struct {
	// Lane, when set, keeps only this lane (its definition and its WUs); "" is a lane too.
	Lane *string
	// Statuses, when not empty, lists only WUs with one of these normalised statuses.
	Statuses []string
	// IncludeDone lists done and closed WUs as well (they are always counted).
	IncludeDone bool
}

// BacklogStatus is corpus §3.8 backlog:status: the board of WUs by lane and status. WU files
// that do not parse and event lines that are not events are warnings (event lines first)
// and left out. Notes.Text is the whole text output.
func BacklogStatus(_ context.Context, ws *delivery.Workspace, in BacklogStatusInput) (delivery.Board, Notes, error) {
	var notes Notes
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return delivery.Board{}, notes, err
	}
	log, err := ws.Events()
	if err != nil {
		return delivery.Board{}, notes, err
	}
	for _, w := range log.Warnings() {
		notes.Warn("%s", w)
	}
	var wus []*delivery.WU
	for _, f := range files {
		if f.Err != nil {
			notes.Warn("%s skipped: %v", f.ID, f.Err)
			continue
		}
		if in.Lane != nil && f.WU.Lane != *in.Lane {
			continue
		}
		wus = append(wus, f.WU)
	}
	list := func(w *delivery.WU) bool {
		s := w.NormStatus()
		if len(in.Statuses) > 0 {
			return slices.Contains(in.Statuses, s)
		}
		return in.IncludeDone || (s != delivery.StatusDone && s != delivery.StatusClosed)
	}
	// A copy: the workspace's configuration may be shared (a warm index).
	cfg := *ws.Config
	if in.Lane != nil {
		cfg.Lanes = slices.DeleteFunc(slices.Clone(cfg.Lanes), func(l delivery.LaneDef) bool { return l.Name != *in.Lane })
	}
	b := delivery.BuildBoard(&cfg, wus, log.Replay(), list)
	notes.Text = boardText(b)
	return b, notes, nil
}

// boardText is the board as text: per lane its WIP line and WU lines, then the totals.
func boardText(b delivery.Board) string {
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
	return out.String()
}
