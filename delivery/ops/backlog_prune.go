package ops

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
)

// BacklogPruneKeys are the configuration sections backlog:prune reads.
var BacklogPruneKeys = []string{"software_delivery.directories", "software_delivery.git"}

// Defaults of backlog:prune's thresholds, in days.
const (
	BacklogPruneStaleInProgress = 7
	BacklogPruneStaleReady      = 30
	BacklogPruneArchiveDays     = 90
)

// BacklogPruneInput is backlog:prune's input: the thresholds in whole days (the
// command's defaults are the BacklogPrune* constants) and whether to tag.
type BacklogPruneInput struct {
	Execute                     bool
	StaleInProgress, StaleReady int
	ArchiveDays                 int
}

// BacklogPruneStale is one stale WU.
type BacklogPruneStale struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Days   int    `json:"days"`
}

// BacklogPruneArchivable is one archivable done WU.
type BacklogPruneArchivable struct {
	ID   string `json:"id"`
	Days int    `json:"days"`
}

// BacklogPruneData is backlog:prune's JSON data. Rows (the text table's rows: WU, status,
// days, category, title, in WU order) and Total (the WUs read) are for the text output.
type BacklogPruneData struct {
	Stale      []BacklogPruneStale      `json:"stale"`
	Archivable []BacklogPruneArchivable `json:"archivable"`
	Healthy    int                      `json:"healthy"`
	Executed   bool                     `json:"executed"`
	Commit     *Commit                  `json:"commit"`
	Rows       [][]string               `json:"-"`
	Total      int                      `json:"-"`
}

const pruneDay = 24 * time.Hour

// BacklogPrune is corpus §3.2 backlog:prune: a WU's last activity is the latest of created,
// claimed_at and its latest event; an in_progress WU idle for more than StaleInProgress
// whole days, or a ready one for more than StaleReady, is stale; a done WU completed more
// than ArchiveDays ago is archivable (reported only). With Execute, each stale WU's notes
// get `[<date>] Auto-tagged as stale by backlog:prune` (unless already there) and the
// tagged WUs are committed as `chore: backlog:prune tag <k> stale wus`. WU files that do
// not parse are skipped with a warning, as are skipped event lines.
func BacklogPrune(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in BacklogPruneInput) (BacklogPruneData, Notes, error) {
	var notes Notes
	log, err := delivery.LoadEvents(ws.Root)
	if err != nil {
		return BacklogPruneData{}, notes, err
	}
	for _, w := range log.Warnings() {
		notes.Warn("%s", w)
	}
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return BacklogPruneData{}, notes, err
	}
	now := rt.Now()
	data := BacklogPruneData{Stale: []BacklogPruneStale{}, Archivable: []BacklogPruneArchivable{}, Executed: in.Execute}
	var written []string
	note := fmt.Sprintf("[%s] Auto-tagged as stale by backlog:prune", delivery.Date(now))
	for _, f := range files {
		if f.Err != nil {
			notes.Warn("%s skipped: %s", f.ID, delivery.AsError(f.Err).Message)
			continue
		}
		w := f.WU
		data.Total++
		status := w.NormStatus()
		days := int(now.Sub(lastActivity(w, log)) / pruneDay)
		switch {
		case status == delivery.StatusInProgress && days > in.StaleInProgress,
			status == delivery.StatusReady && days > in.StaleReady:
			data.Stale = append(data.Stale, BacklogPruneStale{ID: w.ID, Status: status, Days: days})
			data.Rows = append(data.Rows, []string{w.ID, status, strconv.Itoa(days), "stale", w.Title})
			if in.Execute && !strings.Contains(w.Notes, note) {
				appendNote(w, note)
				if err := delivery.WriteWU(ws.Root, w); err != nil {
					return BacklogPruneData{}, notes, err
				}
				written = append(written, w.Path)
			}
			continue
		case status == delivery.StatusDone:
			if done, ok := delivery.CompletedAt(w); ok {
				if d := int(now.Sub(done) / pruneDay); d > in.ArchiveDays {
					data.Archivable = append(data.Archivable, BacklogPruneArchivable{ID: w.ID, Days: d})
					data.Rows = append(data.Rows, []string{w.ID, status, strconv.Itoa(d), "archivable", w.Title})
					continue
				}
			}
		}
		data.Healthy++
	}
	if len(written) > 0 {
		if data.Commit, err = CommitPaths(ctx, ws, rt, &notes, fmt.Sprintf("chore: backlog:prune tag %d stale wus", len(written)), written...); err != nil {
			return BacklogPruneData{}, notes, err
		}
	}
	return data, notes, nil
}

// lastActivity is the latest of created (00:00Z), claimed_at and the WU's latest event.
// TODO(delivery): move to delivery.LastActivity (also used by flow reports).
func lastActivity(w *delivery.WU, log *delivery.EventLog) time.Time {
	last, _ := time.Parse(time.DateOnly, w.Created)
	if t, err := delivery.ParseTimestamp(w.ClaimedAt); err == nil && t.After(last) {
		last = t
	}
	for _, e := range log.For(w.ID) {
		if t, err := delivery.ParseTimestamp(e.Timestamp); err == nil && t.After(last) {
			last = t
		}
	}
	return last
}

// appendNote adds a line to the WU's notes: an item of a legacy list, otherwise a new
// line of the string (the key is appended at the end when absent, corpus §1.14).
func appendNote(w *delivery.WU, note string) {
	if n := w.Get("notes"); n != nil && n.Kind == yaml.SequenceNode {
		n.Content = append(n.Content, storage.StrNode(note))
	} else if strings.TrimSpace(w.Notes) == "" {
		w.Set("notes", storage.StrNode(note))
	} else {
		w.Set("notes", storage.StrNode(strings.TrimRight(w.Notes, "\n")+"\n"+note))
	}
	w.Refresh()
}
