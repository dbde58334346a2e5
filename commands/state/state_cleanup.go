package state

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "state:cleanup",
		New: newStateCleanupApp, Main: convention.Main(newStateCleanupApp)})
}

func newStateCleanupApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "state:cleanup",
		Usage: "Prune runtime state: expired signals, then memory, then archive the events of long-done WUs",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Usage: "report what would be removed without writing"},
			&cli.BoolFlag{Name: "signals-only", Usage: "run only the signal step"},
			&cli.BoolFlag{Name: "memory-only", Usage: "run only the memory step"},
			&cli.BoolFlag{Name: "events-only", Usage: "run only the event step"},
		},
		Rules: []convention.Rule{
			convention.Exclusive("signals-only", "memory-only"),
			convention.Exclusive("signals-only", "events-only"),
			convention.Exclusive("memory-only", "events-only"),
		},
		Destructive: true,
		Idempotent:  true,
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
		Action:      stateCleanup,
	})
}

func stateCleanup(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	if err := ws.Config.Check("software_delivery.directories", "software_delivery.git", "software_delivery.cleanup"); err != nil {
		return err
	}
	dryRun := c.Bool("dry-run")
	only := ""
	for _, f := range []string{"signals-only", "memory-only", "events-only"} {
		if c.Bool(f) {
			only = strings.TrimSuffix(f, "-only")
		}
	}
	runs := func(step string) bool { return only == "" || only == step }
	// A failing step is a warning and leaves its data null; the next step still runs.
	failed := func(step string, err error) { c.Warn("%s step failed: %s", step, delivery.AsError(err).Message) }
	data := stateCleanupData{DryRun: dryRun}
	var lines []string

	if runs("signals") {
		if err := ws.Config.Check("software_delivery.memory.signalCleanup"); err != nil {
			failed("signals", err)
		} else if sig, notes, err := ops.SignalCleanup(c.Context(), ws, c.Runtime(), ops.SignalCleanupInput{DryRun: dryRun}); err != nil {
			warnNotes(c, notes)
			failed("signals", err)
		} else {
			warnNotes(c, notes)
			data.Signals = &cleanupCounts{Removed: len(sig.Removed), Kept: sig.Kept}
			lines = append(lines, fmt.Sprintf("Signals: removed %d, kept %d", len(sig.Removed), sig.Kept))
		}
	}
	if runs("memory") {
		if counts, err := cleanupMemoryStep(c, ws, dryRun); err != nil {
			failed("memory", err)
		} else {
			data.Memory = counts
			lines = append(lines, fmt.Sprintf("Memory: removed %d, kept %d", counts.Removed, counts.Kept))
		}
	}
	eventsChanged := false
	if runs("events") {
		if ev, err := archiveEventsStep(c, ws, dryRun); err != nil {
			failed("events", err)
		} else {
			data.Events = ev
			eventsChanged = ev.Archived > 0 && !dryRun
			lines = append(lines, fmt.Sprintf("Events: archived %d", ev.Archived))
		}
	}
	if eventsChanged {
		if data.Commit, err = c.Commit(ws, ws.Config.CleanupCommitMessage, delivery.EventsFile); err != nil {
			return err
		}
	}
	text := ""
	for _, l := range lines {
		text += l + "\n"
	}
	if !c.JSON {
		text += convention.CommitLines(data.Commit)
	}
	return c.Print(text, data)
}

// cleanupMemoryStep is mem:cleanup with its defaults (TTL = memory.sessionTtl).
func cleanupMemoryStep(c *convention.Call, ws *delivery.Workspace, dryRun bool) (*cleanupCounts, error) {
	if err := ws.Config.Check("software_delivery.memory.sessionTtl"); err != nil {
		return nil, err
	}
	m, err := delivery.LoadMemory(ws.Root)
	if err != nil {
		return nil, err
	}
	for _, w := range m.Warnings() {
		c.Warn("%s", w)
	}
	removed, kept, _, _, err := delivery.CleanupMemory(ws, c.Runtime(),
		delivery.CleanupOptions{TTL: ws.Config.SessionTTL, DryRun: dryRun})
	if err != nil {
		return nil, err
	}
	return &cleanupCounts{Removed: len(removed), Kept: kept}, nil
}

// archiveEventsStep moves the events of WUs done for longer than
// state.eventArchival.archiveAfter to the monthly archives.
func archiveEventsStep(c *convention.Call, ws *delivery.Workspace, dryRun bool) (*eventsArchived, error) {
	if err := ws.Config.Check("software_delivery.state.eventArchival"); err != nil {
		return nil, err
	}
	log, err := delivery.LoadEvents(ws.Root)
	if err != nil {
		return nil, err
	}
	eventWarnings(c, log)
	plan := planEventArchive(log, c.Runtime().Now(), ws.Config.EventArchiveAfter)
	out := &eventsArchived{Archived: plan.Archived, Files: plan.fileNames()}
	if plan.Archived > 0 && !dryRun {
		if err := plan.apply(ws.Root); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// cleanupCounts is the result of the signal and memory steps.
type cleanupCounts struct {
	Removed int `json:"removed"`
	Kept    int `json:"kept"`
}

// eventsArchived is the result of the event step: the moved events and the root-relative
// archive files they went to.
type eventsArchived struct {
	Archived int      `json:"archived"`
	Files    []string `json:"files"`
}

// stateCleanupData is state:cleanup's JSON data; a step that did not run (or failed) is
// null.
type stateCleanupData struct {
	Signals *cleanupCounts     `json:"signals"`
	Memory  *cleanupCounts     `json:"memory"`
	Events  *eventsArchived    `json:"events"`
	DryRun  bool               `json:"dry_run"`
	Commit  *convention.Commit `json:"commit"`
}
