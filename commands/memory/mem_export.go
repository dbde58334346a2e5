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
	commands.Register(legacy.Command{Name: "mem:export", Domain: "memory",
		New: newMemExportApp, Main: convention.Main(newMemExportApp)})
}

func newMemExportApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "mem:export",
		Usage:    "Export visible memory nodes as markdown",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.WU("wu", "only nodes of this work unit (default: the current session's)", false),
			&cli.StringFlag{Name: "type", Usage: "only nodes of this type"},
			convention.Enum("lifecycle", "only nodes of this lifecycle", "", delivery.Lifecycles...),
		},
		Action: memExport,
	})
}

func memExport(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	wu, _ := sessionDefaults(c, ws, c.Value("wu"), "")
	typ, lifecycle := c.String("type"), c.Value("lifecycle")
	m, err := loadMemory(c, ws)
	if err != nil {
		return err
	}
	nodes := []*delivery.MemNode{}
	for _, n := range m.Visible() {
		if (wu == "" || n.WUID == wu) && (typ == "" || n.Type == typ) && (lifecycle == "" || n.Lifecycle == lifecycle) {
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
	return c.Print(b.String(), memExportData{Nodes: nodes})
}

// memExportData is mem:export's JSON data.
type memExportData struct {
	Nodes []*delivery.MemNode `json:"nodes"`
}
