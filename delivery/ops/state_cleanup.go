package ops

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// StateCleanupKeys are the configuration sections state:cleanup checks before any step;
// each step checks its own section when it runs.
var StateCleanupKeys = []string{"software_delivery.directories", "software_delivery.git", "software_delivery.cleanup"}

// StateCleanupInput is state:cleanup's input.
type StateCleanupInput struct {
	DryRun bool
	// Only is the one step to run ("signals", "memory" or "events"); "" runs all three.
	Only string
}

// CleanupCounts is the result of the signal and memory steps.
type CleanupCounts struct {
	Removed int `json:"removed"`
	Kept    int `json:"kept"`
}

// EventsArchived is the result of the event step: the moved events and the root-relative
// archive files they went to.
type EventsArchived struct {
	Archived int      `json:"archived"`
	Files    []string `json:"files"`
}

// StateCleanupData is state:cleanup's JSON data; a step that did not run (or failed) is
// null.
type StateCleanupData struct {
	Signals *CleanupCounts  `json:"signals"`
	Memory  *CleanupCounts  `json:"memory"`
	Events  *EventsArchived `json:"events"`
	DryRun  bool            `json:"dry_run"`
	Commit  *Commit         `json:"commit"`
}

// StateCleanup is corpus §3.2 state:cleanup: the signal step (signal:cleanup with the config
// defaults), the memory step (mem:cleanup with its defaults) and the event step (the
// events of WUs done for longer than state.eventArchival.archiveAfter moved to the monthly
// archives), in that order, or only the step in.Only. A failing step is a warning
// (`<step> step failed: <message>`), its data stays null and the next step still runs.
// When events were archived (not in a dry run), wu-events.jsonl is committed with
// cleanup.commit_message. Notes.Text is the step lines without the commit lines (rule R4
// is the caller's).
func StateCleanup(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in StateCleanupInput) (StateCleanupData, Notes, error) {
	var notes Notes
	runs := func(step string) bool { return in.Only == "" || in.Only == step }
	failed := func(step string, err error) { notes.Warn("%s step failed: %s", step, delivery.AsError(err).Message) }
	data := StateCleanupData{DryRun: in.DryRun}
	var lines []string

	if runs("signals") {
		if err := ws.Config.Check("software_delivery.memory.signalCleanup"); err != nil {
			failed("signals", err)
		} else if removed, kept, err := cleanupSignals(ws, rt, &notes, DefaultSignalPolicy(ws.Config), in.DryRun); err != nil {
			failed("signals", err)
		} else {
			data.Signals = &CleanupCounts{Removed: len(removed), Kept: kept}
			lines = append(lines, fmt.Sprintf("Signals: removed %d, kept %d", len(removed), kept))
		}
	}
	if runs("memory") {
		if counts, err := cleanupMemoryStep(ws, rt, &notes, in.DryRun); err != nil {
			failed("memory", err)
		} else {
			data.Memory = counts
			lines = append(lines, fmt.Sprintf("Memory: removed %d, kept %d", counts.Removed, counts.Kept))
		}
	}
	eventsChanged := false
	if runs("events") {
		if ev, err := archiveEventsStep(ws, rt, &notes, in.DryRun); err != nil {
			failed("events", err)
		} else {
			data.Events = ev
			eventsChanged = ev.Archived > 0 && !in.DryRun
			lines = append(lines, fmt.Sprintf("Events: archived %d", ev.Archived))
		}
	}
	if eventsChanged {
		var err error
		if data.Commit, err = CommitPaths(ctx, ws, rt, &notes, ws.Config.CleanupCommitMessage, delivery.EventsFile); err != nil {
			return StateCleanupData{}, notes, err
		}
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	notes.Text = b.String()
	return data, notes, nil
}

// cleanupMemoryStep is mem:cleanup with its defaults (TTL = memory.sessionTtl).
func cleanupMemoryStep(ws *delivery.Workspace, rt *delivery.Runtime, notes *Notes, dryRun bool) (*CleanupCounts, error) {
	if err := ws.Config.Check("software_delivery.memory.sessionTtl"); err != nil {
		return nil, err
	}
	m, err := delivery.LoadMemory(ws.Root)
	if err != nil {
		return nil, err
	}
	for _, w := range m.Warnings() {
		notes.Warn("%s", w)
	}
	removed, kept, _, _, err := delivery.CleanupMemory(ws, rt, delivery.CleanupOptions{TTL: ws.Config.SessionTTL, DryRun: dryRun})
	if err != nil {
		return nil, err
	}
	return &CleanupCounts{Removed: len(removed), Kept: kept}, nil
}

// archiveEventsStep moves the events of WUs done for longer than
// state.eventArchival.archiveAfter to the monthly archives.
func archiveEventsStep(ws *delivery.Workspace, rt *delivery.Runtime, notes *Notes, dryRun bool) (*EventsArchived, error) {
	if err := ws.Config.Check("software_delivery.state.eventArchival"); err != nil {
		return nil, err
	}
	log, err := delivery.LoadEvents(ws.Root)
	if err != nil {
		return nil, err
	}
	for _, w := range log.Warnings() {
		notes.Warn("%s", w)
	}
	plan := planEventArchive(log, rt.Now(), ws.Config.EventArchiveAfter)
	out := &EventsArchived{Archived: plan.Archived, Files: plan.fileNames()}
	if plan.Archived > 0 && !dryRun {
		if err := plan.apply(ws.Root); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// eventArchive is the plan of state:cleanup's event step: the log lines that stay and,
// per archive file, the lines that move there, in log order.
type eventArchive struct {
	// Keep are the raw lines that stay in wu-events.jsonl (unparsable lines always stay).
	Keep [][]byte
	// Files maps a root-relative archive file to the lines it receives.
	Files map[string][][]byte
	// Archived counts the moved events.
	Archived int
}

// planEventArchive selects the events to archive at now (corpus §3.2 state:cleanup): every
// event of each WU whose event state is done and whose latest complete event is older
// than after. Each goes to .lumenflow/archive/wu-events-<YYYY-MM of that event>.jsonl.
// Events of WUs that are not done are never moved.
// TODO(delivery): move to delivery.PlanEventArchive.
func planEventArchive(log *delivery.EventLog, now time.Time, after time.Duration) eventArchive {
	states := log.Replay()
	lastComplete := map[string]time.Time{}
	for _, ev := range log.Events() {
		if ev.Type != delivery.EventComplete {
			continue
		}
		if t, err := delivery.ParseTimestamp(ev.Timestamp); err == nil && t.After(lastComplete[ev.WUID]) {
			lastComplete[ev.WUID] = t
		}
	}
	plan := eventArchive{Files: map[string][][]byte{}}
	for _, ln := range log.Lines {
		if ln.Err == nil && states[ln.Event.WUID] == delivery.StatusDone {
			if t, ok := lastComplete[ln.Event.WUID]; ok && now.Sub(t) > after {
				at, err := delivery.ParseTimestamp(ln.Event.Timestamp)
				if err == nil {
					f := delivery.ArchiveDir + "/wu-events-" + at.UTC().Format("2006-01") + ".jsonl"
					plan.Files[f] = append(plan.Files[f], ln.Raw)
					plan.Archived++
					continue
				}
			}
		}
		plan.Keep = append(plan.Keep, ln.Raw)
	}
	return plan
}

// fileNames returns the archive files in ascending order.
func (p eventArchive) fileNames() []string {
	out := make([]string, 0, len(p.Files))
	for f := range p.Files {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// apply appends the moved events to their archive files first, then rewrites the log, so
// an interruption can duplicate an event into an archive but never lose one.
func (p eventArchive) apply(root string) error {
	for _, f := range p.fileNames() {
		var b bytes.Buffer
		for _, l := range p.Files[f] {
			b.Write(l)
			b.WriteByte('\n')
		}
		if err := storage.AppendLines(filepath.Join(root, filepath.FromSlash(f)), b.Bytes()); err != nil {
			return delivery.Errorf(tool.CodeIOError, "archive events to %s: %w", f, err)
		}
	}
	return delivery.RewriteEvents(root, p.Keep)
}
