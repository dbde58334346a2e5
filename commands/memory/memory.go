package memory

import (
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
)

// sessionDefaults fills an absent --wu (and session) from the current session file
// (ops.SessionDefaults), replaying its warning on the command's stderr.
func sessionDefaults(c *convention.Call, ws *delivery.Workspace, wu, session string) (string, string) {
	var notes ops.Notes
	wu, session = ops.SessionDefaults(ws, &notes, wu, session)
	for _, w := range notes.Warnings {
		c.Warn("%s", w)
	}
	return wu, session
}

// loadMemory reads the memory store and prints a warning per skipped line.
func loadMemory(c *convention.Call, ws *delivery.Workspace) (*delivery.Memory, error) {
	m, err := delivery.LoadMemory(ws.Root)
	if err != nil {
		return nil, err
	}
	for _, w := range m.Warnings() {
		c.Warn("%s", w)
	}
	return m, nil
}

// nodeLines renders nodes one per line (ops.NodeLines), or empty when there are none.
func nodeLines(nodes []*delivery.MemNode) string { return ops.NodeLines(nodes) }

// newNode builds a node of type t created now, with its lifecycle and a spec §2.5 id.
func newNode(m *delivery.Memory, t, content, createdAt, basis string) *delivery.MemNode {
	lifecycle, _ := delivery.LifecycleOf(t)
	return &delivery.MemNode{ID: delivery.MemoryID(basis, m.Exists), Type: t, Lifecycle: lifecycle,
		Content: content, CreatedAt: createdAt}
}
