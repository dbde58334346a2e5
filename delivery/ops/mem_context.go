package ops

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// MemContextKeys are the configuration sections mem:context reads.
var MemContextKeys = []string{"software_delivery.memory.delegation_context_max_size"}

// projectNodesShown caps mem:context's Project section.
const projectNodesShown = 10

// MemContextInput is mem:context's input.
type MemContextInput struct {
	// WU is the work unit whose context is rendered (required; its form is the shell's check).
	WU string
	// Lane keeps only project nodes of this lane or of none; "" keeps every project node.
	Lane string
	// MaxSize is the size cap in bytes; nil is the workspace's
	// memory.delegation_context_max_size.
	MaxSize *int
}

// MemContextData is mem:context's JSON data.
type MemContextData struct {
	WU        string   `json:"wu"`
	Context   string   `json:"context"`
	Truncated bool     `json:"truncated"`
	NodeIDs   []string `json:"node_ids"`
}

// MemContext is corpus §3.4 mem:context: the markdown context of a WU (its heading, then
// the Project, This WU and Discoveries sections, empty ones omitted, nothing at all when
// no node matches), capped at MaxSize bytes (CappedText). The workspace's MemContextKeys
// must have been checked (ops.OpenWorkspace). Notes.Text is the markdown.
func MemContext(ctx context.Context, ws *delivery.Workspace, in MemContextInput) (MemContextData, Notes, error) {
	var notes Notes
	limit := ws.Config.DelegationContextMax
	if in.MaxSize != nil {
		limit = *in.MaxSize
	}
	m, err := loadMemory(ws, &notes)
	if err != nil {
		return MemContextData{}, notes, err
	}
	var project, mine, discoveries []*delivery.MemNode
	for _, n := range m.Nodes {
		if n.Hidden() {
			continue
		}
		if n.Lifecycle == delivery.LifecycleProject && (in.Lane == "" || n.Metadata.String("lane") == "" || n.Metadata.String("lane") == in.Lane) {
			project = append(project, n)
		}
		if n.WUID != in.WU {
			continue
		}
		if n.Type != delivery.MemTypeDiscovery {
			mine = append(mine, n)
		} else if m.Open(n) {
			discoveries = append(discoveries, n)
		}
	}
	delivery.SortNodes(project)
	project = newestFirst(project)
	if len(project) > projectNodesShown {
		project = project[:projectNodesShown]
	}
	delivery.SortNodes(mine)
	delivery.SortNodes(discoveries)
	r := CappedText{Max: limit}
	if len(project)+len(mine)+len(discoveries) > 0 {
		r.Add("## Memory context for "+in.WU, "")
		r.Section("### Project", project)
		r.Section("### This WU", mine)
		r.Section("### Discoveries", discoveries)
	}
	notes.Text = r.Text()
	return MemContextData{WU: in.WU, Context: r.Text(), Truncated: r.Truncated(), NodeIDs: r.IDs()}, notes, nil
}

// newestFirst reverses a created_at-ascending list.
func newestFirst(nodes []*delivery.MemNode) []*delivery.MemNode {
	out := make([]*delivery.MemNode, 0, len(nodes))
	for i := len(nodes) - 1; i >= 0; i-- {
		out = append(out, nodes[i])
	}
	return out
}
