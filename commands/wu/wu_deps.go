package wu

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:deps",
		New: newWUDepsApp, Main: convention.Main(newWUDepsApp)})
}

func newWUDepsApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "wu:deps",
		Usage:    "Show the dependency tree of a WU (upstream blocked_by, downstream blocks)",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.WU("id", "the WU (or give it as the positional ID)", false),
			convention.Enum("direction", "which side of the tree to show", "both", "up", "down", "both"),
			convention.Int("depth", "levels to expand", 3, convention.Bound(1), nil),
		},
		Args:   []convention.Arg{{Name: "id"}},
		Action: wuDeps,
	})
}

func wuDeps(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	id, err := depsTarget(c, ws)
	if err != nil {
		return err
	}
	root, err := delivery.ReadWU(ws, id)
	if err != nil {
		return err
	}
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return err
	}
	g := depGraph{wus: map[string]*delivery.WU{}, down: map[string][]string{}, depth: c.Int("depth")}
	for _, f := range files {
		if f.Err != nil {
			c.Warn("%s", f.Err.Error())
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
	data := wuDepsData{ID: root.ID}
	var text strings.Builder
	fmt.Fprintf(&text, "%s: %s [%s]\n", root.ID, root.Title, root.NormStatus())
	dir := c.Value("direction")
	if dir != "down" {
		data.Upstream = g.expand(root.ID, func(w *delivery.WU) []string { return w.BlockedBy }, []string{root.ID}, 1)
		text.WriteString("Upstream:\n")
		renderDeps(&text, data.Upstream, 1)
	}
	if dir != "up" {
		data.Downstream = g.expand(root.ID, func(w *delivery.WU) []string { return g.down[w.ID] }, []string{root.ID}, 1)
		text.WriteString("Downstream:\n")
		renderDeps(&text, data.Downstream, 1)
	}
	return c.Print(text.String(), data)
}

// depsTarget is --id, else the positional ID, else the WU of the checkout's lane branch.
func depsTarget(c *convention.Call, ws *delivery.Workspace) (string, error) {
	id := c.Value("id")
	if id == "" {
		id = c.Arg("id")
	}
	if id == "" {
		cwd, err := c.Dir()
		if err != nil {
			return "", err
		}
		if inferred, _ := delivery.LaneOfBranch(c.Context(), ws, cwd); inferred != nil {
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
func (g depGraph) expand(id string, next func(*delivery.WU) []string, path []string, level int) []depNode {
	out := []depNode{}
	w := g.wus[id]
	if w == nil {
		return out
	}
	ids := slices.Clone(next(w))
	delivery.SortWUIDs(ids)
	ids = slices.Compact(ids)
	for _, cid := range ids {
		n := depNode{ID: cid, Children: []depNode{}}
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
func renderDeps(b *strings.Builder, nodes []depNode, level int) {
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

// wuDepsData is wu:deps's JSON data; a side that was not asked for is null.
type wuDepsData struct {
	ID         string    `json:"id"`
	Upstream   []depNode `json:"upstream"`
	Downstream []depNode `json:"downstream"`
}

// depNode is one node of the tree; title is null for a missing WU.
type depNode struct {
	ID       string    `json:"id"`
	Title    *string   `json:"title"`
	Status   string    `json:"status"`
	Cycle    bool      `json:"cycle"`
	Children []depNode `json:"children"`
}
