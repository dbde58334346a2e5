package delivery

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Event types of the WU event log (corpus §1.7).
const (
	EventCreate     = "create"
	EventClaim      = "claim"
	EventBlock      = "block"
	EventUnblock    = "unblock"
	EventRelease    = "release"
	EventComplete   = "complete"
	EventCheckpoint = "checkpoint"
	EventDelegation = "delegation"
)

// Event is one wu-events.jsonl record. Only the fields of its type are written, in the
// documented key order: type, wuId, timestamp, then the type's fields.
type Event struct {
	Type         string
	WUID         string
	Timestamp    string
	Lane         string // create, claim
	Title        string // create, claim
	Reason       string // block, release (non-empty)
	Note         string // checkpoint
	SessionID    string // checkpoint, optional
	Progress     string // checkpoint, optional
	NextSteps    string // checkpoint, optional
	ParentWUID   string // delegation
	DelegationID string // delegation
}

// MarshalJSON writes the record in the spec's key order, without HTML escaping.
func (e Event) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	field := func(k, v string, always bool) {
		if v == "" && !always {
			return
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + k + `":`)
		b.Write(jsonString(v))
	}
	field("type", e.Type, true)
	field("wuId", e.WUID, true)
	field("timestamp", e.Timestamp, true)
	switch e.Type {
	case EventCreate, EventClaim:
		field("lane", e.Lane, true)
		field("title", e.Title, true)
	case EventBlock, EventRelease:
		field("reason", e.Reason, true)
	case EventCheckpoint:
		field("note", e.Note, true)
		field("sessionId", e.SessionID, false)
		field("progress", e.Progress, false)
		field("nextSteps", e.NextSteps, false)
	case EventDelegation:
		field("parentWuId", e.ParentWUID, true)
		field("delegationId", e.DelegationID, true)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimRight(b.Bytes(), "\n")
}

// eventWire is the decoding shape; pointers distinguish absent from empty.
type eventWire struct {
	Type         *string `json:"type"`
	WUID         *string `json:"wuId"`
	Timestamp    *string `json:"timestamp"`
	Lane         *string `json:"lane"`
	Title        *string `json:"title"`
	Reason       *string `json:"reason"`
	Note         *string `json:"note"`
	SessionID    *string `json:"sessionId"`
	Progress     *string `json:"progress"`
	NextSteps    *string `json:"nextSteps"`
	ParentWUID   *string `json:"parentWuId"`
	DelegationID *string `json:"delegationId"`
}

var wuIDRe = regexp.MustCompile(WUIDPattern)

// ValidWUID reports whether id matches ^WU-\d+$.
func ValidWUID(id string) bool { return wuIDRe.MatchString(id) }

// ParseEvent decodes and validates one event line.
func ParseEvent(raw []byte) (Event, error) {
	var w eventWire
	if err := json.Unmarshal(raw, &w); err != nil {
		return Event{}, errors.New(storage.JSONReason(err))
	}
	s := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	e := Event{Type: s(w.Type), WUID: s(w.WUID), Timestamp: s(w.Timestamp), Lane: s(w.Lane), Title: s(w.Title),
		Reason: s(w.Reason), Note: s(w.Note), SessionID: s(w.SessionID), Progress: s(w.Progress),
		NextSteps: s(w.NextSteps), ParentWUID: s(w.ParentWUID), DelegationID: s(w.DelegationID)}
	return e, e.Validate()
}

// Validate checks the record's required fields (corpus §1.7).
func (e Event) Validate() error {
	if !ValidWUID(e.WUID) {
		return fmt.Errorf("invalid wuId %q", e.WUID)
	}
	if _, err := ParseTimestamp(e.Timestamp); err != nil {
		return fmt.Errorf("invalid timestamp %q", e.Timestamp)
	}
	switch e.Type {
	case EventCreate, EventClaim:
		if e.Lane == "" || e.Title == "" {
			return fmt.Errorf("%s event needs lane and title", e.Type)
		}
	case EventBlock, EventRelease:
		if e.Reason == "" {
			return fmt.Errorf("%s event needs a non-empty reason", e.Type)
		}
	case EventCheckpoint:
		if e.Note == "" {
			return errors.New("checkpoint event needs a note")
		}
	case EventDelegation:
		if e.ParentWUID == "" || e.DelegationID == "" {
			return errors.New("delegation event needs parentWuId and delegationId")
		}
	case EventUnblock, EventComplete:
	default:
		return fmt.Errorf("unknown event type %q", e.Type)
	}
	return nil
}

// StateAfter returns the event state after applying e to prev ("" = no state yet).
func (e Event) StateAfter(prev string) string {
	switch e.Type {
	case EventCreate, EventRelease:
		return StatusReady
	case EventClaim, EventUnblock:
		return StatusInProgress
	case EventBlock:
		return StatusBlocked
	case EventComplete:
		return StatusDone
	}
	return prev
}

// EventLine is one non-blank line of the log: its number, raw text, and either the event
// or the reason it was skipped.
type EventLine struct {
	N     int
	Raw   []byte
	Event Event
	Err   error
}

// EventLog is the parsed wu-events.jsonl. Lines must not change once the log is in use:
// [EventLog.For] and [EventLog.State] read a per-WU index of line positions built from
// them on first use, so that a command asking about every WU reads the log once (linear
// in events), not once per WU.
type EventLog struct {
	Lines []EventLine

	// spare is Lines with the capacity an Extend appended into (Lines itself is clipped,
	// so a holder's append copies); taken is set by the one Extend that may use it.
	spare []EventLine
	taken atomic.Bool

	indexOnce sync.Once
	// byWU holds, per WU, the positions in Lines of its valid events, in file order:
	// positions rather than copies, so a one-WU read pays little for the index.
	byWU map[string][]int32
}

// EventsPath is the absolute event log of root.
func EventsPath(root string) string { return filepath.Join(root, filepath.FromSlash(EventsFile)) }

// LoadEvents reads the event log of root; a missing log is empty.
func LoadEvents(root string) (*EventLog, error) {
	lines, err := storage.ReadLines(EventsPath(root))
	if err != nil {
		return nil, Errorf(tool.CodeIOError, "%w", err)
	}
	return EventLogOf(lines), nil
}

// EventLogOf parses the log's lines (ReadLines or SplitLines of its content).
func EventLogOf(lines []storage.Line) *EventLog {
	log := &EventLog{Lines: make([]EventLine, 0, len(lines))}
	for _, l := range lines {
		ev, err := ParseEvent(l.Raw)
		log.Lines = append(log.Lines, EventLine{N: l.N, Raw: l.Raw, Event: ev, Err: err})
	}
	return log
}

// Extend returns a new log: l's lines, then lines parsed (the lines appended to the file
// since l was read, numbered as in the whole file). l does not change. It costs what
// was appended, not the whole log: the first Extend of l appends into the capacity
// beyond l's lines (which l never shows), a later one copies; the new log's per-WU
// index is l's with the new positions added, copying only the WUs they touch.
func (l *EventLog) Extend(lines []storage.Line) *EventLog {
	added := EventLogOf(lines).Lines
	base := slices.Clip(l.Lines)
	if l.spare != nil && l.taken.CompareAndSwap(false, true) {
		base = l.spare[:len(l.Lines)]
	}
	all := append(base, added...)
	next := &EventLog{Lines: slices.Clip(all), spare: all}
	next.indexOnce.Do(func() {
		old := l.index()
		next.byWU = maps.Clone(old)
		for i, ln := range added {
			if ln.Err == nil {
				id := ln.Event.WUID
				next.byWU[id] = append(slices.Clip(next.byWU[id]), int32(len(l.Lines)+i))
			}
		}
	})
	return next
}

// Events returns the valid events in file order.
func (l *EventLog) Events() []Event {
	out := make([]Event, 0, len(l.Lines))
	for _, ln := range l.Lines {
		if ln.Err == nil {
			out = append(out, ln.Event)
		}
	}
	return out
}

// For returns the valid events of one WU in file order, in a slice of its own.
func (l *EventLog) For(id string) []Event {
	pos := l.positions(id)
	if len(pos) == 0 {
		return nil
	}
	out := make([]Event, len(pos))
	for i, k := range pos {
		out[i] = l.Lines[k].Event
	}
	return out
}

// positions returns where the WU's valid events are in Lines, building the index on the
// first call.
func (l *EventLog) positions(id string) []int32 { return l.index()[id] }

// index returns the per-WU index, building it on the first call.
func (l *EventLog) index() map[string][]int32 {
	l.indexOnce.Do(func() {
		l.byWU = map[string][]int32{}
		for i, ln := range l.Lines {
			if ln.Err == nil {
				l.byWU[ln.Event.WUID] = append(l.byWU[ln.Event.WUID], int32(i))
			}
		}
	})
	return l.byWU
}

// Invalid returns the skipped lines.
func (l *EventLog) Invalid() []storage.LineError {
	var out []storage.LineError
	for _, ln := range l.Lines {
		if ln.Err != nil {
			out = append(out, storage.LineError{N: ln.N, Reason: ln.Err.Error()})
		}
	}
	return out
}

// Warnings renders the skipped lines as "wu-events.jsonl line <k>: <reason>" (commands
// prefix them with "[<command>] warning: ").
func (l *EventLog) Warnings() []string {
	var out []string
	for _, e := range l.Invalid() {
		out = append(out, e.Warning("wu-events.jsonl"))
	}
	return out
}

// Replay applies every valid event in file order and returns each WU's event state. WUs
// without events are absent. Transitions are not checked.
func (l *EventLog) Replay() map[string]string {
	states := map[string]string{}
	for _, ln := range l.Lines {
		if ln.Err != nil {
			continue
		}
		states[ln.Event.WUID] = ln.Event.StateAfter(states[ln.Event.WUID])
	}
	return states
}

// State returns one WU's event state and whether it has one.
func (l *EventLog) State(id string) (string, bool) {
	state, seen := "", false
	for _, k := range l.positions(id) {
		state, seen = l.Lines[k].Event.StateAfter(state), true
	}
	return state, seen
}

// MaxWUNumber is the highest WU number among the log's wuId values (0 when none).
func (l *EventLog) MaxWUNumber() int {
	max := 0
	for _, ln := range l.Lines {
		// A line that fails validation still names its WU: its id is taken all the same.
		{
			if n := WUNumber(ln.Event.WUID); n > max {
				max = n
			}
		}
	}
	return max
}

// Consistent reports whether an event state agrees with a YAML status: a WU with no event
// state is consistent, otherwise the state must equal the normalised status. A closed WU
// is the exception: no event produces closed, so its events can only end where the work
// stopped — ready (claimed then released, or only created) or done (completed, then
// superseded). Both agree with closed; an active state (in_progress, blocked, waiting)
// does not: the claim was never let go (docs/real-data.md).
func Consistent(eventState string, hasState bool, yamlStatus string) bool {
	if !hasState {
		return true
	}
	status := NormalizeStatus(yamlStatus)
	if status == StatusClosed {
		return eventState == StatusReady || eventState == StatusDone
	}
	return eventState == status
}

// ReconcileTarget is the event state a reconciliation (wu:repair, state:doctor --fix)
// moves a WU's events to so they agree with its YAML status: the normalised status, or
// ready for a closed WU (no event produces closed; releasing the claim is the move that
// makes the log agree).
func ReconcileTarget(yamlStatus string) string {
	if s := NormalizeStatus(yamlStatus); s != StatusClosed {
		return s
	}
	return StatusReady
}

// AppendEvents appends events to root's log in one write. Each event is validated first.
func AppendEvents(root string, events ...Event) error {
	recs := make([]any, len(events))
	for i, e := range events {
		if err := e.Validate(); err != nil {
			return Errorf(tool.CodeInternal, "event for %s: %w", e.WUID, err)
		}
		recs[i] = e
	}
	if err := storage.AppendJSONL(EventsPath(root), recs...); err != nil {
		return Errorf(tool.CodeIOError, "%w", err)
	}
	return nil
}

// RewriteEvents replaces the log with the given lines (raw, without newline), for the
// commands allowed to rewrite it (wu:delete, wu:recover nuke, wu:repair --repair-state,
// state:doctor --fix, state:cleanup).
func RewriteEvents(root string, lines [][]byte) error {
	var buf bytes.Buffer
	for _, l := range lines {
		buf.Write(l)
		buf.WriteByte('\n')
	}
	if err := storage.RewriteLines(EventsPath(root), buf.Bytes()); err != nil {
		return Errorf(tool.CodeIOError, "rewrite wu-events.jsonl: %w", err)
	}
	return nil
}
