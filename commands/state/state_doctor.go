package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/lanelock"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "state:doctor",
		New: newStateDoctorApp, Main: convention.Main(newStateDoctorApp)})
}

func newStateDoctorApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "state:doctor",
		Usage: "Check the integrity of the whole workspace state (WUs, stamps, events, signals, locks); --fix repairs it",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "fix", Usage: "repair the fixable issues and commit the changed artifacts"},
			&cli.BoolFlag{Name: "dry-run", Usage: "with --fix: only report what is fixable, write nothing"},
		},
		Destructive: true,
		Idempotent:  true,
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("fix")), tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
		Action:      stateDoctor,
	})
}

// Issue codes of state:doctor (spec §3.2), in report order; the first three are shared
// with wu:recover and wu:repair.
const (
	issueDoneNoStamp     = "YAML_DONE_NO_STAMP"
	issueStampNotDone    = "STAMP_EXISTS_YAML_NOT_DONE"
	issueStatusMismatch  = "STATUS_MISMATCH"
	issueEventsMissingWU = "EVENTS_FOR_MISSING_WU"
	issueMalformedEvent  = "MALFORMED_EVENT_LINE"
	issueDanglingSignal  = "DANGLING_SIGNAL"
	issueDanglingBlocked = "DANGLING_BLOCKED_BY"
	issueStaleLock       = "STALE_LOCK"
)

var doctorCodes = []string{issueDoneNoStamp, issueStampNotDone, issueStatusMismatch, issueEventsMissingWU,
	issueMalformedEvent, issueDanglingSignal, issueDanglingBlocked, issueStaleLock}

func stateDoctor(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	if err := ws.Config.Check("software_delivery.directories", "software_delivery.git"); err != nil {
		return err
	}
	fix := c.Bool("fix")
	apply := fix && !c.Bool("dry-run")
	d, err := examine(c, ws)
	if err != nil {
		return err
	}
	data := doctorData{Issues: []doctorIssue{}}
	for _, code := range doctorCodes {
		data.Issues = append(data.Issues, d.issues[code]...)
	}
	if apply {
		written, err := d.repair(c, ws)
		if err != nil {
			return err
		}
		for i := range data.Issues {
			if data.Issues[i].Fixable {
				data.Issues[i].Fixed = true
				data.Fixed++
			}
		}
		if len(written) > 0 {
			if data.Commit, err = c.Commit(ws, fmt.Sprintf("fix(state-doctor): repair %d issue(s)", data.Fixed), written...); err != nil {
				return err
			}
		}
	}
	data.Remaining = len(data.Issues) - data.Fixed
	text := fmt.Sprintf("%d issue(s) found\n", len(data.Issues))
	if apply {
		text = fmt.Sprintf("%d issue(s) fixed, %d remaining\n", data.Fixed, data.Remaining)
	}
	for _, is := range data.Issues {
		text += fmt.Sprintf("  %s %s: %s\n", is.Code, is.Subject, is.Message)
	}
	text += convention.CommitLines(data.Commit)
	if data.Remaining > 0 {
		msg := fmt.Sprintf("%d issue(s) found", data.Remaining)
		if apply {
			msg = fmt.Sprintf("%d issue(s) remaining", data.Remaining)
		}
		return checkFailed(c, text, data, tool.CodeCheckFailed, msg)
	}
	return c.Print(text, data)
}

// diagnosis is what examine found, with what --fix needs to repair it.
type diagnosis struct {
	issues map[string][]doctorIssue
	log    *delivery.EventLog
	store  *delivery.SignalStore
	// markDone maps WUs whose YAML becomes done to their stamp date; stamps maps WUs
	// whose stamp is written to its date.
	markDone, stamps map[*delivery.WU]string
	wuOrder          []*delivery.WU
	// appendEvents are the corrective events, dropLines the event line numbers removed.
	appendEvents []delivery.Event
	dropLines    map[int]bool
	dropSignals  map[string]bool
	staleLocks   []string
}

func (d *diagnosis) add(code, subject, message string, fixable bool) {
	d.issues[code] = append(d.issues[code], doctorIssue{Code: code, Subject: subject, Message: message, Fixable: fixable})
}

// examine runs every check; it never writes.
func examine(c *convention.Call, ws *delivery.Workspace) (*diagnosis, error) {
	log, err := delivery.LoadEvents(ws.Root)
	if err != nil {
		return nil, err
	}
	eventWarnings(c, log)
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return nil, err
	}
	store, err := delivery.LoadSignals(ws.Root)
	if err != nil {
		return nil, err
	}
	for _, w := range store.Warnings() {
		c.Warn("%s", w)
	}
	locks, err := lanelock.List(ws.Root)
	if err != nil {
		return nil, delivery.Errorf(tool.CodeIOError, "%w", err)
	}
	rt := c.Runtime()
	now := rt.Now()
	d := &diagnosis{issues: map[string][]doctorIssue{}, log: log, store: store,
		markDone: map[*delivery.WU]string{}, stamps: map[*delivery.WU]string{},
		dropLines: map[int]bool{}, dropSignals: map[string]bool{}}
	known := map[string]bool{}
	for _, f := range files {
		known[f.ID] = true
		if f.Err != nil {
			c.Warn("%s skipped: %s", f.ID, delivery.AsError(f.Err).Message)
		}
	}
	if err := warnOrphanStamps(c, ws, known); err != nil {
		return nil, err
	}

	for _, f := range files {
		if f.Err != nil {
			continue
		}
		w := f.WU
		status := w.NormStatus()
		stamp := delivery.StampExists(ws.Root, w.ID)
		target, toDone := delivery.ReconcileTarget(w.Status), false
		if status == delivery.StatusDone && !stamp {
			d.stamps[w] = stampDateFor(w, delivery.Date(now))
			d.wuOrder = append(d.wuOrder, w)
			d.add(issueDoneNoStamp, w.ID, fmt.Sprintf("YAML status is done but stamp %s is missing", delivery.StampRel(w.ID)), true)
		}
		if stamp && status != delivery.StatusDone {
			fixable := status != delivery.StatusClosed
			if fixable {
				date := delivery.StampDate(ws.Root, w.ID)
				if date == "" {
					date = delivery.Date(now)
				}
				d.markDone[w] = date
				d.wuOrder = append(d.wuOrder, w)
				target, toDone = delivery.StatusDone, true
			}
			d.add(issueStampNotDone, w.ID, fmt.Sprintf("stamp %s exists but YAML status is %s", delivery.StampRel(w.ID), status), fixable)
		}
		state, has := log.State(w.ID)
		mismatch := !delivery.Consistent(state, has, w.Status)
		if mismatch || toDone {
			evs, ok := correctiveEvents(w, state, target, delivery.Timestamp(now))
			if ok {
				d.appendEvents = append(d.appendEvents, evs...)
			}
			if mismatch {
				d.add(issueStatusMismatch, w.ID, fmt.Sprintf("YAML status is %s but the event state is %s", status, state), ok)
			}
		}
	}

	missing := map[string]int{}
	var missingOrder []string
	for _, ln := range log.Lines {
		if ln.Err != nil || known[ln.Event.WUID] {
			continue
		}
		if missing[ln.Event.WUID] == 0 {
			missingOrder = append(missingOrder, ln.Event.WUID)
		}
		missing[ln.Event.WUID]++
		d.dropLines[ln.N] = true
	}
	delivery.SortWUIDs(missingOrder)
	for _, id := range missingOrder {
		d.add(issueEventsMissingWU, id, fmt.Sprintf("%d event(s) but no %s", missing[id], ws.WUPath(id)), true)
	}
	for _, ln := range log.Lines {
		if ln.Err != nil {
			d.dropLines[ln.N] = true
			d.add(issueMalformedEvent, fmt.Sprintf("%s:%d", "wu-events.jsonl", ln.N), ln.Err.Error(), true)
		}
	}
	for _, s := range store.Signals {
		if s.WUID != "" && !known[s.WUID] {
			d.dropSignals[s.ID] = true
			d.add(issueDanglingSignal, s.ID, fmt.Sprintf("wu_id %s has no WU spec", s.WUID), true)
		}
	}
	for _, f := range files {
		if f.Err != nil {
			continue
		}
		for _, b := range f.WU.BlockedBy {
			if !known[b] {
				d.add(issueDanglingBlocked, f.ID, fmt.Sprintf("blocked_by %s does not exist", b), false)
			}
		}
	}
	for _, l := range locks {
		if l.Stale(now, rt.StaleThreshold()) {
			d.staleLocks = append(d.staleLocks, l.Path)
			msg := fmt.Sprintf("lock of lane %s for %s (owner %s, %s) is stale", l.Lane, l.WUID, l.Owner, l.Timestamp)
			if !l.Valid {
				msg = "lock file is unreadable"
			}
			d.add(issueStaleLock, l.Path, msg, true)
		}
	}
	return d, nil
}

// repair applies every fix examine planned and returns the committable paths it wrote:
// WU YAMLs and stamps first, then the event log in one rewrite, then the runtime state
// (signals, locks).
func (d *diagnosis) repair(c *convention.Call, ws *delivery.Workspace) ([]string, error) {
	var written []string
	done := map[*delivery.WU]bool{}
	for _, w := range d.wuOrder {
		if done[w] {
			continue
		}
		done[w] = true
		if date, ok := d.markDone[w]; ok {
			markDone(w, date)
			if err := delivery.WriteWU(ws.Root, w); err != nil {
				return nil, err
			}
			written = append(written, w.Path)
		}
		if date, ok := d.stamps[w]; ok {
			if err := delivery.WriteStamp(ws.Root, w.ID, w.Title, date); err != nil {
				return nil, err
			}
			written = append(written, delivery.StampRel(w.ID))
		}
	}
	if len(d.dropLines) > 0 || len(d.appendEvents) > 0 {
		lines := make([][]byte, 0, len(d.log.Lines)+len(d.appendEvents))
		for _, ln := range d.log.Lines {
			if !d.dropLines[ln.N] {
				lines = append(lines, ln.Raw)
			}
		}
		for _, e := range d.appendEvents {
			if err := e.Validate(); err != nil {
				return nil, delivery.Errorf(tool.CodeInternal, "event for %s: %w", e.WUID, err)
			}
			raw, err := e.MarshalJSON()
			if err != nil {
				return nil, delivery.Errorf(tool.CodeInternal, "event for %s: %w", e.WUID, err)
			}
			lines = append(lines, raw)
		}
		if err := delivery.RewriteEvents(ws.Root, lines); err != nil {
			return nil, err
		}
		written = append(written, delivery.EventsFile)
	}
	if len(d.dropSignals) > 0 {
		var keep []delivery.Signal
		for _, s := range d.store.Signals {
			if !d.dropSignals[s.ID] {
				keep = append(keep, s)
			}
		}
		if err := delivery.RewriteSignalStore(ws.Root, keep); err != nil {
			return nil, err
		}
	}
	for _, p := range d.staleLocks {
		delivery.JournalWrite(ws.Abs(p))
		if err := os.Remove(ws.Abs(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, delivery.Errorf(tool.CodeIOError, "remove stale lock %s: %w", p, err)
		}
	}
	return written, nil
}

// doctorIssue is one finding of state:doctor.
type doctorIssue struct {
	Code    string `json:"code"`
	Subject string `json:"subject"`
	Message string `json:"message"`
	Fixable bool   `json:"fixable"`
	Fixed   bool   `json:"fixed"`
}

// doctorData is state:doctor's JSON data.
type doctorData struct {
	Issues    []doctorIssue      `json:"issues"`
	Fixed     int                `json:"fixed"`
	Remaining int                `json:"remaining"`
	Commit    *convention.Commit `json:"commit"`
}

// warnOrphanStamps warns about each stamp whose WU has no spec. A mature project keeps the
// stamps of WUs whose specs were deleted; they harm nothing (their ids stay taken: see
// delivery.NextWUID) and deleting them would erase history, so they are reported, never
// counted as issues (docs/real-data.md).
func warnOrphanStamps(c *convention.Call, ws *delivery.Workspace, known map[string]bool) error {
	ids, err := delivery.StampIDs(ws.Root)
	if err != nil {
		return err
	}
	delivery.SortWUIDs(ids)
	for _, id := range ids {
		if !known[id] {
			c.Warn("stamp %s has no WU spec (%s)", delivery.StampRel(id), ws.WUPath(id))
		}
	}
	return nil
}
