package ops

import (
	"context"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// MemExportInput is mem:export's input; "" is no filter (WU: the current session's).
type MemExportInput struct {
	WU, Type, Lifecycle string
}

// MemExportData is mem:export's JSON data.
type MemExportData struct {
	Nodes []*delivery.MemNode `json:"nodes"`
}

// MemExport is corpus §3.4 mem:export: the visible nodes that pass the filters, sorted by
// created_at then id. Notes.Text is the markdown export ("# Memory export", then one
// section per node).
func MemExport(ctx context.Context, ws *delivery.Workspace, in MemExportInput) (MemExportData, Notes, error) {
	var notes Notes
	wu, _ := SessionDefaults(ws, &notes, in.WU, "")
	m, err := loadMemory(ws, &notes)
	if err != nil {
		return MemExportData{}, notes, err
	}
	nodes := []*delivery.MemNode{}
	for _, n := range m.Visible() {
		if (wu == "" || n.WUID == wu) && (in.Type == "" || n.Type == in.Type) && (in.Lifecycle == "" || n.Lifecycle == in.Lifecycle) {
			nodes = append(nodes, n)
		}
	}
	delivery.SortNodes(nodes)
	var b strings.Builder
	b.WriteString("# Memory export\n")
	for _, n := range nodes {
		b.WriteString("## " + n.ID + " (" + n.Type + ", " + n.Lifecycle + ")\n")
		b.WriteString("- created: " + n.CreatedAt + "\n")
		if n.WUID != "" {
			b.WriteString("- wu: " + n.WUID + "\n")
		}
		if len(n.Tags) > 0 {
			b.WriteString("- tags: " + strings.Join(n.Tags, ", ") + "\n")
		}
		b.WriteString("\n" + n.Content + "\n\n")
	}
	notes.Text = b.String()
	return MemExportData{Nodes: nodes}, notes, nil
}
