package ops

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// WUDepsDirections are the values of wu:deps's --direction.
var WUDepsDirections = []string{"up", "down", "both"}

// WUDepsInput is wu:deps's input.
type WUDepsInput struct {
	// ID is the WU; "" infers it from the lane branch checked out in Dir.
	ID string
	// Dir is the directory the call runs in (for the inference).
	Dir string
	// Direction is up, down or both ("" is both).
	Direction string
	// Depth is the number of levels to expand (≥ 1).
	Depth int
}

// WUDepsData is wu:deps's JSON data; a side that was not asked for is null.
type WUDepsData struct {
	ID         string    `json:"id"`
	Upstream   []DepNode `json:"upstream"`
	Downstream []DepNode `json:"downstream"`
}

// DepNode is one node of the tree; title is null for a missing WU.
type DepNode struct {
	ID       string    `json:"id"`
	Title    *string   `json:"title"`
	Status   string    `json:"status"`
	Cycle    bool      `json:"cycle"`
	Children []DepNode `json:"children"`
}

// WUDeps is corpus §3.1 wu:deps: the upstream (blocked_by) and downstream (blocks, and every
// WU listing it in blocked_by) trees of a WU. WU files that do not parse are warnings and
// left out. Notes.Text is the whole text output.
func WUDeps(ctx context.Context, ws *delivery.Workspace, in WUDepsInput) (WUDepsData, Notes, error) {
	var notes Notes
	id, err := depsTarget(ctx, ws, in)
	if err != nil {
		return WUDepsData{}, notes, err
	}
	root, err := delivery.ReadWU(ws, id)
	if err != nil {
		return WUDepsData{}, notes, err
	}
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return WUDepsData{}, notes, err
	}
	g := depGraph{wus: map[string]*delivery.WU{}, down: map[string][]string{}, depth: in.Depth}
	for _, f := range files {
		if f.Err != nil {
			notes.Warn("%s", f.Err.Error())
			continue
		}
		g.wus[f.ID] = f.WU
	}
	for _, f := range files {
		if f.WU == nil {
			continue
		}
		g.down[f.ID] = append(g.down[f.ID], f.WU.Blocks...)
		for _, b := range f.WU.BlockedBy {
			g.down[b] = append(g.down[b], f.ID)
		}
	}
	data := WUDepsData{ID: root.ID}
	var text strings.Builder
	fmt.Fprintf(&text, "%s: %s [%s]\n", root.ID, root.Title, root.NormStatus())
	if in.Direction != "down" {
		data.Upstream = g.expand(root.ID, func(w *delivery.WU) []string { return w.BlockedBy }, []string{root.ID}, 1)
		text.WriteString("Upstream:\n")
		renderDeps(&text, data.Upstream, 1)
	}
	if in.Direction != "up" {
		data.Downstream = g.expand(root.ID, func(w *delivery.WU) []string { return g.down[w.ID] }, []string{root.ID}, 1)
		text.WriteString("Downstream:\n")
		renderDeps(&text, data.Downstream, 1)
	}
	notes.Text = text.String()
	return data, notes, nil
}

// depsTarget is the given id, else the WU of the checkout's lane branch.
func depsTarget(ctx context.Context, ws *delivery.Workspace, in WUDepsInput) (string, error) {
	id := in.ID
	if id == "" {
		if inferred, _ := delivery.LaneOfBranch(ctx, ws, in.Dir); inferred != nil {
			id = *inferred
		}
	}
	if id == "" {
		return "", delivery.Errorf(tool.CodeNotFound, "no WU id given and none inferable from the current branch")
	}
	if !delivery.ValidWUID(id) {
		return "", delivery.Errorf(tool.CodeNotFound, "%q is not a WU id (WU-<number>)", id)
	}
	return id, nil
}

// depGraph is the WUs by id and the reverse edges (blocks ∪ listed in blocked_by).
type depGraph struct {
	wus   map[string]*delivery.WU
	down  map[string][]string
	depth int
}

// expand returns the children of id (sorted by number, duplicates dropped) down to the
// depth limit; a child already on path is marked as a cycle and not expanded.
func (g depGraph) expand(id string, next func(*delivery.WU) []string, path []string, level int) []DepNode {
	out := []DepNode{}
	w := g.wus[id]
	if w == nil {
		return out
	}
	ids := slices.Clone(next(w))
	delivery.SortWUIDs(ids)
	ids = slices.Compact(ids)
	for _, cid := range ids {
		n := DepNode{ID: cid, Children: []DepNode{}}
		if cw := g.wus[cid]; cw != nil {
			n.Title, n.Status = &cw.Title, cw.NormStatus()
		} else {
			n.Status = "missing"
		}
		if slices.Contains(path, cid) {
			n.Cycle = true
		} else if level < g.depth && g.wus[cid] != nil {
			n.Children = g.expand(cid, next, append(slices.Clone(path), cid), level+1)
		}
		out = append(out, n)
	}
	return out
}

// renderDeps prints nodes indented two spaces per depth.
func renderDeps(b *strings.Builder, nodes []DepNode, level int) {
	if level == 1 && len(nodes) == 0 {
		b.WriteString("  (none)\n")
	}
	for _, n := range nodes {
		indent := strings.Repeat("  ", level)
		switch {
		case n.Title == nil:
			fmt.Fprintf(b, "%s- %s [missing]\n", indent, n.ID)
		default:
			fmt.Fprintf(b, "%s- %s: %s [%s]", indent, n.ID, *n.Title, n.Status)
			if n.Cycle {
				b.WriteString(" (cycle)")
			}
			b.WriteString("\n")
		}
		renderDeps(b, n.Children, level+1)
	}
}
