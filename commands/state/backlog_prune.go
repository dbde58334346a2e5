package state

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
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
			convention.Int("stale-days-in-progress", "days of inactivity after which an in_progress WU is stale", 7, nil, nil),
			convention.Int("stale-days-ready", "days of inactivity after which a ready WU is stale", 30, nil, nil),
			convention.Int("archive-days", "days after completion from which a done WU is archivable", 90, nil, nil),
		},
		Idempotent: true,
		Effects:    []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("execute"))},
		Action:     backlogPrune,
	})
}

const day = 24 * time.Hour

func backlogPrune(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	if err := ws.Config.Check("software_delivery.directories", "software_delivery.git"); err != nil {
		return err
	}
	log, err := delivery.LoadEvents(ws.Root)
	if err != nil {
		return err
	}
	eventWarnings(c, log)
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return err
	}
	now := c.Runtime().Now()
	execute := c.Bool("execute")
	data := pruneData{Stale: []pruneStale{}, Archivable: []pruneArchivable{}, Executed: execute}
	var rows [][]string
	var written []string
	note := fmt.Sprintf("[%s] Auto-tagged as stale by backlog:prune", delivery.Date(now))
	total := 0
	for _, f := range files {
		if f.Err != nil {
			c.Warn("%s skipped: %s", f.ID, delivery.AsError(f.Err).Message)
			continue
		}
		w := f.WU
		total++
		status := w.NormStatus()
		days := int(now.Sub(lastActivity(w, log)) / day)
		switch {
		case status == delivery.StatusInProgress && days > c.Int("stale-days-in-progress"),
			status == delivery.StatusReady && days > c.Int("stale-days-ready"):
			data.Stale = append(data.Stale, pruneStale{ID: w.ID, Status: status, Days: days})
			rows = append(rows, []string{w.ID, status, strconv.Itoa(days), "stale", w.Title})
			if execute && !strings.Contains(w.Notes, note) {
				appendNote(w, note)
				if err := delivery.WriteWU(ws.Root, w); err != nil {
					return err
				}
				written = append(written, w.Path)
			}
			continue
		case status == delivery.StatusDone:
			if done, ok := completedAt(w); ok {
				if d := int(now.Sub(done) / day); d > c.Int("archive-days") {
					data.Archivable = append(data.Archivable, pruneArchivable{ID: w.ID, Days: d})
					rows = append(rows, []string{w.ID, status, strconv.Itoa(d), "archivable", w.Title})
					continue
				}
			}
		}
		data.Healthy++
	}
	if len(written) > 0 {
		if data.Commit, err = c.Commit(ws, fmt.Sprintf("chore: backlog:prune tag %d stale wus", len(written)), written...); err != nil {
			return err
		}
	}
	text := convention.Table("stale or archivable WUs", []string{"wu", "status", "days", "category", "title"}, rows) +
		fmt.Sprintf("Total %d, stale %d, archivable %d, healthy %d\n", total, len(data.Stale), len(data.Archivable), data.Healthy)
	if !c.JSON {
		text += convention.CommitLines(data.Commit)
	}
	return c.Print(text, data)
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

// completedAt is when a done WU was completed: completed_at, else the completed date
// (delivery.CompletedAt, which also reads a date written in completed_at).
func completedAt(w *delivery.WU) (time.Time, bool) { return delivery.CompletedAt(w) }

// appendNote adds a line to the WU's notes: an item of a legacy list, otherwise a new
// line of the string (the key is appended at the end when absent, spec §1.14).
func appendNote(w *delivery.WU, note string) {
	if n := w.Get("notes"); n != nil && n.Kind == yaml.SequenceNode {
		n.Content = append(n.Content, delivery.StrNode(note))
	} else if strings.TrimSpace(w.Notes) == "" {
		w.Set("notes", delivery.StrNode(note))
	} else {
		w.Set("notes", delivery.StrNode(strings.TrimRight(w.Notes, "\n")+"\n"+note))
	}
	w.Refresh()
}

// pruneStale is one stale WU.
type pruneStale struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Days   int    `json:"days"`
}

// pruneArchivable is one archivable done WU.
type pruneArchivable struct {
	ID   string `json:"id"`
	Days int    `json:"days"`
}

// pruneData is backlog:prune's JSON data.
type pruneData struct {
	Stale      []pruneStale       `json:"stale"`
	Archivable []pruneArchivable  `json:"archivable"`
	Healthy    int                `json:"healthy"`
	Executed   bool               `json:"executed"`
	Commit     *convention.Commit `json:"commit"`
}
