package ops

import (
	"context"
	"fmt"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// MemReadyInput is mem:ready's input.
type MemReadyInput struct {
	// WU is the work unit whose nodes are listed (required; its form is the shell's check).
	WU string
	// Type keeps only nodes of this type; "" keeps every type.
	Type string
}

// MemReadyData is mem:ready's JSON data.
type MemReadyData struct {
	WU    string              `json:"wu"`
	Nodes []*delivery.MemNode `json:"nodes"`
}

// MemReady is corpus §3.4 mem:ready: the open nodes of the WU (delivery.Memory.ReadyNodes),
// by priority, then created_at, then id. Notes.Text is the whole text output (one node
// line each, or "No ready nodes for <wu>.").
func MemReady(ctx context.Context, ws *delivery.Workspace, in MemReadyInput) (MemReadyData, Notes, error) {
	var notes Notes
	m, err := loadMemory(ws, &notes)
	if err != nil {
		return MemReadyData{}, notes, err
	}
	nodes := nonNilNodes(m.ReadyNodes(in.WU, in.Type))
	notes.Text = NodeLines(nodes)
	if len(nodes) == 0 {
		notes.Text = fmt.Sprintf("No ready nodes for %s.\n", in.WU)
	}
	return MemReadyData{WU: in.WU, Nodes: nodes}, notes, nil
}
