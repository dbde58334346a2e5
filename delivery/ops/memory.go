package ops

import (
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// SessionDefaults fills an absent wu (and session) from the current session file
// (spec §3.4): when wu is "", both come from .lumenflow/sessions/current.json (session
// only when it is "" too). A session file that does not parse is a warning: the
// operation goes on without it rather than failing on state it does not own.
func SessionDefaults(ws *delivery.Workspace, notes *Notes, wu, session string) (string, string) {
	if wu != "" {
		return wu, session
	}
	s, err := delivery.ReadSession(ws.Root)
	if err != nil {
		notes.Warn("%s", err.Error())
		return wu, session
	}
	if s == nil {
		return wu, session
	}
	if session == "" {
		session = s.SessionID
	}
	return s.WUID, session
}

// SinceExpected is the accepted form of a SINCE value (spec §2.1), as usage messages
// name it.
const SinceExpected = "duration like 30m, 24h or 7d, YYYY-MM-DD date or RFC 3339 timestamp"

// ParseSince resolves a SINCE value against now: a DURATION (now − d), a DATE (00:00Z)
// or an RFC 3339 timestamp. ok is false for "", and err is a USAGE error naming flag for
// any other form.
func ParseSince(flag, v string, now time.Time) (t time.Time, ok bool, err error) {
	if v == "" {
		return time.Time{}, false, nil
	}
	if d, err := delivery.ParseDuration(v); err == nil {
		return now.Add(-d), true, nil
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil && len(v) == len(time.DateOnly) {
		return t.UTC(), true, nil
	}
	if t, err := delivery.ParseTimestamp(v); err == nil {
		return t.UTC(), true, nil
	}
	return time.Time{}, false, delivery.Errorf(tool.CodeUsage, "invalid value %q for --%s: expected %s", v, flag, SinceExpected)
}

// loadMemory reads the memory store and records a warning per skipped line.
func loadMemory(ws *delivery.Workspace, notes *Notes) (*delivery.Memory, error) {
	m, err := delivery.LoadMemory(ws.Root)
	if err != nil {
		return nil, err
	}
	for _, w := range m.Warnings() {
		notes.Warn("%s", w)
	}
	return m, nil
}

// loadSignals reads the signal store and records a warning per skipped line.
func loadSignals(ws *delivery.Workspace, notes *Notes) (*delivery.SignalStore, error) {
	s, err := delivery.LoadSignals(ws.Root)
	if err != nil {
		return nil, err
	}
	for _, w := range s.Warnings() {
		notes.Warn("%s", w)
	}
	return s, nil
}

// newNode builds a node of type t created now, with its lifecycle and a spec §2.5 id.
func newNode(m *delivery.Memory, t, content, createdAt, basis string) *delivery.MemNode {
	lifecycle, _ := delivery.LifecycleOf(t)
	return &delivery.MemNode{ID: delivery.MemoryID(basis, m.Exists), Type: t, Lifecycle: lifecycle,
		Content: content, CreatedAt: createdAt}
}
