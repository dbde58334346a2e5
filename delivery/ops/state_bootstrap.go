package ops

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// StateBootstrapKeys are the configuration sections state:bootstrap reads.
var StateBootstrapKeys = []string{"software_delivery.directories", "software_delivery.git"}

// StateBootstrapInput is state:bootstrap's input.
type StateBootstrapInput struct {
	// Execute writes the log and commits it; without it the run is a dry run.
	Execute bool
	// Force overwrites an event log that has lines.
	Force bool
}

// StateBootstrapData is state:bootstrap's JSON data.
type StateBootstrapData struct {
	EventsGenerated int      `json:"events_generated"`
	WUsConsidered   int      `json:"wus_considered"`
	Skipped         []string `json:"skipped"`
	DryRun          bool     `json:"dry_run"`
	Commit          *Commit  `json:"commit"`
}

// bootstrapBlockReason is the reason of the block event a blocked WU gets.
const bootstrapBlockReason = "Bootstrapped from WU YAML (original reason unknown)"

// StateBootstrap is corpus §3.2 state:bootstrap: the event log derived from the WU specs
// (a claim for every WU in progress, blocked or done, then its block or completion),
// sorted by time; with Execute it replaces the log and is committed. A log with lines
// is ALREADY_EXISTS unless Force; a WU that does not parse or whose dates do not is
// skipped with a warning. Notes.Headline is the text headline.
func StateBootstrap(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in StateBootstrapInput) (StateBootstrapData, Notes, error) {
	var notes Notes
	log, err := delivery.LoadEvents(ws.Root)
	if err != nil {
		return StateBootstrapData{}, notes, err
	}
	if len(log.Lines) > 0 && !in.Force {
		return StateBootstrapData{}, notes, &delivery.Error{Code: tool.CodeAlreadyExists,
			Message: fmt.Sprintf("%s already has %d line(s); use --force to overwrite it", delivery.EventsFile, len(log.Lines))}
	}
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return StateBootstrapData{}, notes, err
	}
	data := StateBootstrapData{Skipped: []string{}, DryRun: !in.Execute}
	var events []timedEvent
	withEvents := 0
	for _, f := range files {
		if f.Err != nil {
			notes.Warn("%s skipped: %s", f.ID, delivery.AsError(f.Err).Message)
			data.Skipped = append(data.Skipped, f.ID)
			continue
		}
		data.WUsConsidered++
		evs, err := bootstrapEvents(f.WU)
		if err != nil {
			notes.Warn("%s skipped: %s", f.ID, err)
			data.Skipped = append(data.Skipped, f.ID)
			continue
		}
		if len(evs) > 0 {
			withEvents++
		}
		events = append(events, evs...)
	}
	sort.SliceStable(events, func(i, j int) bool { return events[i].at.Before(events[j].at) })
	data.EventsGenerated = len(events)
	verb := "Would generate"
	if in.Execute {
		verb = "Generated"
		lines := make([][]byte, 0, len(events))
		for _, e := range events {
			raw, err := e.ev.MarshalJSON()
			if err != nil {
				return StateBootstrapData{}, notes, delivery.Errorf(tool.CodeInternal, "event for %s: %w", e.ev.WUID, err)
			}
			lines = append(lines, raw)
		}
		if err := delivery.RewriteEvents(ws.Root, lines); err != nil {
			return StateBootstrapData{}, notes, err
		}
		if data.Commit, err = CommitPaths(ctx, ws, rt, &notes, fmt.Sprintf("chore: state:bootstrap generate %d events", len(events)), delivery.EventsFile); err != nil {
			return StateBootstrapData{}, notes, err
		}
	}
	notes.Headline = fmt.Sprintf("%s %d event(s) for %d WU(s)", verb, len(events), withEvents)
	return data, notes, nil
}

// timedEvent is an event with its parsed time, for the stable sort.
type timedEvent struct {
	at time.Time
	ev delivery.Event
}

// bootstrapEvents derives a WU's events from its YAML (corpus §3.2 state:bootstrap).
func bootstrapEvents(w *delivery.WU) ([]timedEvent, error) {
	status := w.NormStatus()
	switch status {
	case delivery.StatusReady:
		return nil, nil
	case delivery.StatusClosed:
		return nil, fmt.Errorf("status %s is closed", w.Status)
	case delivery.StatusInProgress, delivery.StatusBlocked, delivery.StatusDone:
	default:
		return nil, fmt.Errorf("status %q is not a known status", w.Status)
	}
	created, err := time.Parse(time.DateOnly, w.Created)
	if err != nil {
		return nil, fmt.Errorf("created %q is not a YYYY-MM-DD date", w.Created)
	}
	claimAt := created
	if w.ClaimedAt != "" {
		if claimAt, err = delivery.ParseTimestamp(w.ClaimedAt); err != nil {
			return nil, fmt.Errorf("claimed_at %q is not a timestamp", w.ClaimedAt)
		}
	}
	at := func(t time.Time, e delivery.Event) timedEvent {
		e.WUID, e.Timestamp = w.ID, delivery.Timestamp(t)
		return timedEvent{at: t, ev: e}
	}
	out := []timedEvent{at(claimAt, delivery.Event{Type: delivery.EventClaim, Lane: w.Lane, Title: w.Title})}
	switch status {
	case delivery.StatusBlocked:
		out = append(out, at(claimAt.Add(time.Second), delivery.Event{Type: delivery.EventBlock, Reason: bootstrapBlockReason}))
	case delivery.StatusDone:
		// completed_at, else the end of a date-only completion (completed, or a date in
		// completed_at), else created; and never before the claim, so the replay ends
		// done as the YAML says (docs/real-data.md).
		doneAt, ok := delivery.CompletedBy(w)
		if !ok {
			if w.CompletedAt != "" {
				return nil, fmt.Errorf("completed_at %q is not a timestamp", w.CompletedAt)
			}
			doneAt = created
		}
		if doneAt.Before(claimAt) {
			doneAt = claimAt.Add(time.Second)
		}
		out = append(out, at(doneAt, delivery.Event{Type: delivery.EventComplete}))
	}
	return out, nil
}
