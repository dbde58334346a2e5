package state

import (
	"fmt"
	"sort"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "state:bootstrap",
		New: newStateBootstrapApp, Main: convention.Main(newStateBootstrapApp)})
}

func newStateBootstrapApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "state:bootstrap",
		Usage: "Build wu-events.jsonl from the WU YAMLs (one-off migration; dry run unless --execute)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "execute", Usage: "write the log (the default is a dry run)"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite a non-empty event log"},
		},
		Destructive: true,
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("execute"))},
		Action:      stateBootstrap,
	})
}

// bootstrapBlockReason is the reason of the block event a blocked WU gets.
const bootstrapBlockReason = "Bootstrapped from WU YAML (original reason unknown)"

func stateBootstrap(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	if err := ws.Config.Check("software_delivery.directories", "software_delivery.git"); err != nil {
		return err
	}
	execute := c.Bool("execute")
	log, err := delivery.LoadEvents(ws.Root)
	if err != nil {
		return err
	}
	if len(log.Lines) > 0 && !c.Bool("force") {
		return c.Failf(tool.CodeAlreadyExists, "%s already has %d line(s); use --force to overwrite it", delivery.EventsFile, len(log.Lines))
	}
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return err
	}
	data := bootstrapData{Skipped: []string{}, DryRun: !execute}
	var events []timedEvent
	withEvents := 0
	for _, f := range files {
		if f.Err != nil {
			c.Warn("%s skipped: %s", f.ID, delivery.AsError(f.Err).Message)
			data.Skipped = append(data.Skipped, f.ID)
			continue
		}
		data.WUsConsidered++
		evs, err := bootstrapEvents(f.WU)
		if err != nil {
			c.Warn("%s skipped: %s", f.ID, err)
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
	if execute {
		verb = "Generated"
		lines := make([][]byte, 0, len(events))
		for _, e := range events {
			raw, err := e.ev.MarshalJSON()
			if err != nil {
				return delivery.Errorf(tool.CodeInternal, "event for %s: %w", e.ev.WUID, err)
			}
			lines = append(lines, raw)
		}
		if err := delivery.RewriteEvents(ws.Root, lines); err != nil {
			return err
		}
		if data.Commit, err = c.Commit(ws, fmt.Sprintf("chore: state:bootstrap generate %d events", len(events)), delivery.EventsFile); err != nil {
			return err
		}
	}
	return c.Result(fmt.Sprintf("%s %d event(s) for %d WU(s)", verb, len(events), withEvents), data)
}

// timedEvent is an event with its parsed time, for the stable sort.
type timedEvent struct {
	at time.Time
	ev delivery.Event
}

// bootstrapEvents derives a WU's events from its YAML (spec §3.2 state:bootstrap).
// TODO(delivery): move to delivery.BootstrapEvents.
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

// bootstrapData is state:bootstrap's JSON data.
type bootstrapData struct {
	EventsGenerated int                `json:"events_generated"`
	WUsConsidered   int                `json:"wus_considered"`
	Skipped         []string           `json:"skipped"`
	DryRun          bool               `json:"dry_run"`
	Commit          *convention.Commit `json:"commit"`
}

// Committed gives the text renderer the commit for rule R4.
func (d bootstrapData) Committed() *convention.Commit { return d.Commit }
