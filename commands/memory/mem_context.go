package memory

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "mem:context", Domain: "memory",
		New: newMemContextApp, Main: convention.Main(newMemContextApp)})
}

func newMemContextApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "mem:context",
		Usage:    "Render the memory context of a WU as size-capped markdown",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.WU("wu", "work unit", true),
			&cli.StringFlag{Name: "lane", Usage: "only project nodes of this lane (or of none)"},
			convention.Int("max-size", "size cap in bytes (default: memory.delegation_context_max_size)", 0, convention.Bound(1), nil),
		},
		Action: memContext,
	})
}

// projectNodesShown caps the Project section.
const projectNodesShown = 10

func memContext(c *convention.Call) error {
	wu, lane := c.Value("wu"), c.String("lane")
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	if err := ws.Config.Check("software_delivery.memory.delegation_context_max_size"); err != nil {
		return err
	}
	max := ws.Config.DelegationContextMax
	if c.IsSet("max-size") {
		max = c.Int("max-size")
	}
	m, err := loadMemory(c, ws)
	if err != nil {
		return err
	}
	var project, mine, discoveries []*delivery.MemNode
	for _, n := range m.Nodes {
		if n.Hidden() {
			continue
		}
		if n.Lifecycle == delivery.LifecycleProject && (lane == "" || n.Metadata.String("lane") == "" || n.Metadata.String("lane") == lane) {
			project = append(project, n)
		}
		if n.WUID != wu {
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
	r := cappedText{max: max}
	if len(project)+len(mine)+len(discoveries) > 0 {
		r.add("## Memory context for "+wu, "")
		r.section("### Project", project)
		r.section("### This WU", mine)
		r.section("### Discoveries", discoveries)
	}
	return c.Print(r.text(), memContextData{WU: wu, Context: r.text(), Truncated: r.truncated, NodeIDs: r.ids()})
}

// newestFirst reverses a created_at-ascending list.
func newestFirst(nodes []*delivery.MemNode) []*delivery.MemNode {
	out := make([]*delivery.MemNode, 0, len(nodes))
	for i := len(nodes) - 1; i >= 0; i-- {
		out = append(out, nodes[i])
	}
	return out
}

// cappedText accumulates lines while the total stays within max bytes; the first line
// that would exceed it stops the text and appends "(truncated)" (mem:context, mem:recover).
type cappedText struct {
	max       int
	b         strings.Builder
	nodeIDs   []string
	truncated bool
}

// add appends one line (and records the node it shows); false once truncated.
func (r *cappedText) add(line, nodeID string) bool {
	if r.truncated {
		return false
	}
	if r.b.Len()+len(line)+1 > r.max {
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

// section adds a heading and one "- [<type>] <content>" line per node; nothing when empty.
func (r *cappedText) section(heading string, nodes []*delivery.MemNode) {
	if len(nodes) == 0 {
		return
	}
	r.add(heading, "")
	for _, n := range nodes {
		r.add("- ["+n.Type+"] "+oneLine(n.Content), n.ID)
	}
}

func (r *cappedText) text() string { return r.b.String() }

func (r *cappedText) ids() []string {
	if r.nodeIDs == nil {
		return []string{}
	}
	return r.nodeIDs
}

// oneLine keeps a bullet on one line: newlines become spaces.
func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

// memContextData is mem:context's JSON data.
type memContextData struct {
	WU        string   `json:"wu"`
	Context   string   `json:"context"`
	Truncated bool     `json:"truncated"`
	NodeIDs   []string `json:"node_ids"`
}
