package ops

import (
	"strings"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// SessionDefaults fills an absent wu (and session) from the current session file
// (corpus §3.4): when wu is "", both come from .lumenflow/sessions/current.json (session
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

// SinceExpected is the accepted form of a SINCE value (corpus §2.1), as usage messages
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

// loadMemory reads the memory store (from the warm index when ws has a Source: the store
// is then shared and must not change) and records a warning per skipped line.
func loadMemory(ws *delivery.Workspace, notes *Notes) (*delivery.Memory, error) {
	m, err := ws.Memory()
	if err != nil {
		return nil, err
	}
	for _, w := range m.Warnings() {
		notes.Warn("%s", w)
	}
	return m, nil
}

// loadSignals reads the signal store (shared, as loadMemory's) and records a warning per
// skipped line.
func loadSignals(ws *delivery.Workspace, notes *Notes) (*delivery.SignalStore, error) {
	s, err := ws.Signals()
	if err != nil {
		return nil, err
	}
	for _, w := range s.Warnings() {
		notes.Warn("%s", w)
	}
	return s, nil
}

// newNode builds a node of type t created now, with its lifecycle and a corpus §2.5 id.
func newNode(m *delivery.Memory, t, content, createdAt, basis string) *delivery.MemNode {
	lifecycle, _ := delivery.LifecycleOf(t)
	return &delivery.MemNode{ID: delivery.MemoryID(basis, m.Exists), Type: t, Lifecycle: lifecycle,
		Content: content, CreatedAt: createdAt}
}

// NodeLine is the memory commands' node text line (corpus §3.4):
// <id>  <type>  <lifecycle>  <created_at>  <first line of content>.
func NodeLine(n *delivery.MemNode) string {
	first, _, _ := strings.Cut(n.Content, "\n")
	return strings.Join([]string{n.ID, n.Type, n.Lifecycle, n.CreatedAt, first}, "  ") + "\n"
}

// NodeLines renders nodes one per line, or empty when there are none.
func NodeLines(nodes []*delivery.MemNode) string {
	var b strings.Builder
	for _, n := range nodes {
		b.WriteString(NodeLine(n))
	}
	return b.String()
}

// nonNilNodes turns a nil node list into an empty one, so JSON shows [].
func nonNilNodes(nodes []*delivery.MemNode) []*delivery.MemNode {
	if nodes == nil {
		return []*delivery.MemNode{}
	}
	return nodes
}

// OneLine keeps a bullet on one line: newlines become spaces.
func OneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

// CappedText accumulates lines while the total stays within Max bytes; the first line
// that would exceed it stops the text and appends "(truncated)" (mem:context,
// mem:recover).
type CappedText struct {
	// Max is the size cap in bytes, "(truncated)\n" excluded.
	Max       int
	b         strings.Builder
	nodeIDs   []string
	truncated bool
}

// Add appends one line (and records the node it shows, unless nodeID is ""); false once
// truncated.
func (r *CappedText) Add(line, nodeID string) bool {
	if r.truncated {
		return false
	}
	if r.b.Len()+len(line)+1 > r.Max {
		r.truncated = true
		r.b.WriteString("(truncated)\n")
		return false
	}
	r.b.WriteString(line + "\n")
	if nodeID != "" {
		r.nodeIDs = append(r.nodeIDs, nodeID)
	}
	return true
}

// Section adds a heading and one "- [<type>] <content>" line per node; nothing when empty.
func (r *CappedText) Section(heading string, nodes []*delivery.MemNode) {
	if len(nodes) == 0 {
		return
	}
	r.Add(heading, "")
	for _, n := range nodes {
		r.Add("- ["+n.Type+"] "+OneLine(n.Content), n.ID)
	}
}

// Text is the text so far.
func (r *CappedText) Text() string { return r.b.String() }

// Truncated reports whether a line was left out.
func (r *CappedText) Truncated() bool { return r.truncated }

// IDs are the nodes shown, in order ([] when none).
func (r *CappedText) IDs() []string { return orEmpty(r.nodeIDs) }
