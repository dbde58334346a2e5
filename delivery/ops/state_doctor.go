package ops

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/lanelock"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// StateDoctorKeys are the configuration sections state:doctor reads.
var StateDoctorKeys = []string{"software_delivery.directories", "software_delivery.git"}

// Issue codes of state:doctor (corpus §3.2), in report order; the first three are shared
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

// StateDoctorInput is state:doctor's input.
type StateDoctorInput struct {
	// Fix repairs the fixable issues and commits the changed artifacts.
	Fix bool
	// DryRun, with Fix, only reports: nothing is written.
	DryRun bool
}

// StateDoctorIssue is one finding of state:doctor.
type StateDoctorIssue struct {
	Code    string `json:"code"`
	Subject string `json:"subject"`
	Message string `json:"message"`
	Fixable bool   `json:"fixable"`
	Fixed   bool   `json:"fixed"`
}

// StateDoctorData is state:doctor's JSON data.
type StateDoctorData struct {
	Issues    []StateDoctorIssue `json:"issues"`
	Fixed     int                `json:"fixed"`
	Remaining int                `json:"remaining"`
	Commit    *Commit            `json:"commit"`
}

// StateDoctor is corpus §3.2 state:doctor: every check over WUs, stamps, events, signals and
// locks, reported in code order; with Fix (and not DryRun) every fixable issue is
// repaired (WU YAMLs and stamps, then the event log in one rewrite, then signals and
// locks) and the committable artifacts committed as `fix(state-doctor): repair <k>
// issue(s)`. When issues remain the error is CHECK_FAILED and the data is still the full
// report, as the command's failure envelope carries it. Notes.Text is the text report
// without the commit lines (rule R4 is the caller's).
func StateDoctor(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in StateDoctorInput) (StateDoctorData, Notes, error) {
	var notes Notes
	apply := in.Fix && !in.DryRun
	d, err := examineState(ws, rt, &notes)
	if err != nil {
		return StateDoctorData{}, notes, err
	}
	data := StateDoctorData{Issues: []StateDoctorIssue{}}
	for _, code := range doctorCodes {
		data.Issues = append(data.Issues, d.issues[code]...)
	}
	if apply {
		written, err := d.repair(ws)
		if err != nil {
			return StateDoctorData{}, notes, err
		}
		for i := range data.Issues {
			if data.Issues[i].Fixable {
				data.Issues[i].Fixed = true
				data.Fixed++
			}
		}
		if len(written) > 0 {
			if data.Commit, err = CommitPaths(ctx, ws, rt, &notes, fmt.Sprintf("fix(state-doctor): repair %d issue(s)", data.Fixed), written...); err != nil {
				return StateDoctorData{}, notes, err
			}
		}
	}
	data.Remaining = len(data.Issues) - data.Fixed
	var b strings.Builder
	if apply {
		fmt.Fprintf(&b, "%d issue(s) fixed, %d remaining\n", data.Fixed, data.Remaining)
	} else {
		fmt.Fprintf(&b, "%d issue(s) found\n", len(data.Issues))
	}
	for _, is := range data.Issues {
		fmt.Fprintf(&b, "  %s %s: %s\n", is.Code, is.Subject, is.Message)
	}
	notes.Text = b.String()
	if data.Remaining > 0 {
		msg := fmt.Sprintf("%d issue(s) found", data.Remaining)
		if apply {
			msg = fmt.Sprintf("%d issue(s) remaining", data.Remaining)
		}
		return data, notes, delivery.Errorf(tool.CodeCheckFailed, "%s", msg)
	}
	return data, notes, nil
}

// stateDiagnosis is what examineState found, with what a fix needs to repair it.
type stateDiagnosis struct {
	issues map[string][]StateDoctorIssue
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

func (d *stateDiagnosis) add(code, subject, message string, fixable bool) {
	d.issues[code] = append(d.issues[code], StateDoctorIssue{Code: code, Subject: subject, Message: message, Fixable: fixable})
}

// examineState runs every check; it never writes.
func examineState(ws *delivery.Workspace, rt *delivery.Runtime, notes *Notes) (*stateDiagnosis, error) {
	log, err := delivery.LoadEvents(ws.Root)
	if err != nil {
		return nil, err
	}
	for _, w := range log.Warnings() {
		notes.Warn("%s", w)
	}
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return nil, err
	}
	store, err := delivery.LoadSignals(ws.Root)
	if err != nil {
		return nil, err
	}
	for _, w := range store.Warnings() {
		notes.Warn("%s", w)
	}
	locks, err := lanelock.List(ws.Root)
	if err != nil {
		return nil, delivery.Errorf(tool.CodeIOError, "%w", err)
	}
	now := rt.Now()
	d := &stateDiagnosis{issues: map[string][]StateDoctorIssue{}, log: log, store: store,
		markDone: map[*delivery.WU]string{}, stamps: map[*delivery.WU]string{},
		dropLines: map[int]bool{}, dropSignals: map[string]bool{}}
	known := map[string]bool{}
	for _, f := range files {
		known[f.ID] = true
		if f.Err != nil {
			notes.Warn("%s skipped: %s", f.ID, delivery.AsError(f.Err).Message)
		}
	}
	if err := warnOrphanStamps(ws, known, notes); err != nil {
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

// repair applies every fix examineState planned and returns the committable paths it
// wrote: WU YAMLs and stamps first, then the event log in one rewrite, then the runtime
// state (signals, locks).
func (d *stateDiagnosis) repair(ws *delivery.Workspace) ([]string, error) {
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
		if err := storage.JournalWrite(ws.Abs(p)); err != nil {
			return nil, err
		}
		if err := os.Remove(ws.Abs(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, delivery.Errorf(tool.CodeIOError, "remove stale lock %s: %w", p, err)
		}
	}
	return written, nil
}

// warnOrphanStamps warns about each stamp whose WU has no spec. A mature project keeps the
// stamps of WUs whose specs were deleted; they harm nothing (their ids stay taken: see
// delivery.NextWUID) and deleting them would erase history, so they are reported, never
// counted as issues (docs/real-data.md).
func warnOrphanStamps(ws *delivery.Workspace, known map[string]bool, notes *Notes) error {
	ids, err := delivery.StampIDs(ws.Root)
	if err != nil {
		return err
	}
	delivery.SortWUIDs(ids)
	for _, id := range ids {
		if !known[id] {
			notes.Warn("stamp %s has no WU spec (%s)", delivery.StampRel(id), ws.WUPath(id))
		}
	}
	return nil
}

// reconcileReason is the reason of the block and release events a reconciliation appends
// (corpus §3.1 wu:repair, whose fixes state:doctor --fix applies).
const reconcileReason = "wu:repair reconcile"

// eventEdges are the events that move an event state along an allowed transition (spec
// §1.5/§1.7). The empty state (a WU without events) only needs complete to become done.
var eventEdges = map[string][]struct{ typ, to string }{
	"":                        {{delivery.EventComplete, delivery.StatusDone}},
	delivery.StatusReady:      {{delivery.EventClaim, delivery.StatusInProgress}},
	delivery.StatusInProgress: {{delivery.EventBlock, delivery.StatusBlocked}, {delivery.EventRelease, delivery.StatusReady}, {delivery.EventComplete, delivery.StatusDone}},
	delivery.StatusBlocked:    {{delivery.EventUnblock, delivery.StatusInProgress}, {delivery.EventComplete, delivery.StatusDone}},
	delivery.StatusWaiting:    {{delivery.EventUnblock, delivery.StatusInProgress}, {delivery.EventComplete, delivery.StatusDone}},
}

// correctiveEvents is the shortest sequence of events that moves a WU's event state from
// `from` ("" when it has no events) to `to`, stamped at ts, or false when there is none
// (nothing leaves done, and no event produces closed).
// TODO(delivery): move to delivery.CorrectiveEvents (wu:repair needs it too).
func correctiveEvents(w *delivery.WU, from, to, ts string) ([]delivery.Event, bool) {
	if from == to {
		return nil, true
	}
	type step struct {
		state string
		path  []string
	}
	seen := map[string]bool{from: true}
	queue := []step{{from, nil}}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, e := range eventEdges[cur.state] {
			if seen[e.to] {
				continue
			}
			path := append(append([]string(nil), cur.path...), e.typ)
			if e.to == to {
				return eventsOf(w, path, ts), true
			}
			seen[e.to] = true
			queue = append(queue, step{e.to, path})
		}
	}
	return nil, false
}

// eventsOf builds the events of the given types for w, with the fields each type needs.
func eventsOf(w *delivery.WU, types []string, ts string) []delivery.Event {
	out := make([]delivery.Event, len(types))
	for i, t := range types {
		e := delivery.Event{Type: t, WUID: w.ID, Timestamp: ts}
		switch t {
		case delivery.EventCreate, delivery.EventClaim:
			e.Lane, e.Title = w.Lane, w.Title
		case delivery.EventBlock, delivery.EventRelease:
			e.Reason = reconcileReason
		}
		out[i] = e
	}
	return out
}

// stampDateFor is the completion date a missing stamp gets: completed, else the date of
// completed_at, else today (corpus §3.1 wu:repair).
func stampDateFor(w *delivery.WU, today string) string {
	if w.Completed != "" {
		return w.Completed
	}
	if t, ok := delivery.CompletedAt(w); ok { // a date in completed_at counts too, as in wu:repair
		return delivery.Date(t)
	}
	return today
}

// markDone sets a WU's YAML to done as of a stamp date: completed is the date and
// completed_at its midnight (corpus §3.1 wu:repair, STAMP_EXISTS_YAML_NOT_DONE).
func markDone(w *delivery.WU, date string) {
	w.Set("status", storage.StrNode(delivery.StatusDone))
	w.Set("completed", storage.DateNode(date))
	w.Set("completed_at", storage.TimestampNode(date+"T00:00:00.000Z"))
	w.Refresh()
}
