package memory

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "mem:triage", Domain: "memory",
		New: newMemTriageApp, Main: convention.Main(newMemTriageApp)})
}

func newMemTriageApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "mem:triage",
		Usage: "List open discoveries, promote one to a bug WU, or archive one",
		Flags: []cli.Flag{
			convention.WU("wu", "only discoveries of this work unit (default: the current session's)", false),
			convention.MEM("promote", "discovery to promote to a new WU", false),
			&cli.StringFlag{Name: "lane", Usage: "lane of the promoted WU"},
			&cli.StringFlag{Name: "title", Usage: "title of the promoted WU (default: the content's first sentence)"},
			convention.MEM("archive", "discovery to archive", false),
			&cli.StringFlag{Name: "reason", Usage: "why the discovery is archived"},
		},
		Rules: []convention.Rule{
			convention.Exclusive("promote", "archive"),
			convention.Requires("promote", "lane"),
			convention.Requires("archive", "reason"),
		},
		Destructive: true,
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("promote"), tool.IsUnset("archive"))},
		Action:      memTriage,
	})
}

// titleMax is the longest derived title, in characters.
const titleMax = 80

func memTriage(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	m, err := loadMemory(c, ws)
	if err != nil {
		return err
	}
	switch {
	case c.IsSet("promote"):
		return triagePromote(c, ws, m, c.Value("promote"))
	case c.IsSet("archive"):
		return triageArchive(c, ws, m, c.Value("archive"))
	}
	wu, _ := sessionDefaults(c, ws, c.Value("wu"), "")
	nodes := []*delivery.MemNode{}
	for _, n := range m.Nodes {
		if n.Type == delivery.MemTypeDiscovery && (wu == "" || n.WUID == wu) && m.Open(n) {
			nodes = append(nodes, n)
		}
	}
	delivery.SortNodes(nodes)
	text := nodeLines(nodes)
	if len(nodes) == 0 {
		text = "No open discoveries found.\n"
	}
	return c.Print(text, memTriageListData{Nodes: nodes})
}

// triageTarget returns the node to promote or archive: an existing, visible discovery that
// is neither closed nor archived.
func triageTarget(c *convention.Call, m *delivery.Memory, id string) (*delivery.MemNode, error) {
	n := m.Get(id)
	if n == nil || n.Deleted() {
		return nil, c.Failf(tool.CodeNotFound, "memory node %s not found", id)
	}
	if n.Type != delivery.MemTypeDiscovery {
		return nil, c.Failf(tool.CodeValidation, "%s is a %s node, not a discovery", id, n.Type)
	}
	if s := n.Status(); s == delivery.MemStatusClosed || s == delivery.MemStatusArchived {
		return nil, c.Failf(tool.CodeValidation, "%s is already %s", id, s)
	}
	return n, nil
}

func triagePromote(c *convention.Call, ws *delivery.Workspace, m *delivery.Memory, id string) error {
	n, err := triageTarget(c, m, id)
	if err != nil {
		return err
	}
	lane := c.String("lane")
	if err := ws.Config.Check("software_delivery.lanes", "software_delivery.directories"); err != nil {
		return err
	}
	if _, ok := ws.Config.Lane(lane); len(ws.Config.Lanes) > 0 && !ok {
		return c.Failf(tool.CodeValidation, "unknown lane %q", lane)
	}
	title := c.String("title")
	if title == "" {
		title = firstSentence(n.Content)
	}
	wuID, err := delivery.NextWUID(ws)
	if err != nil {
		return err
	}
	priority := n.Priority()
	if priority == "" {
		priority = "P2"
	}
	rt := c.Runtime()
	now := rt.Now()
	w := delivery.NewWU(ws.Config.WUDir, delivery.NewWUInput{ID: wuID, Title: title, Lane: lane, Type: "bug",
		Priority: priority, Created: delivery.Date(now), Description: n.Content})
	w.Set("notes", delivery.StrNode("Promoted from discovery "+id))
	w.Refresh()
	if errs := delivery.ValidateStructure(w); len(errs) > 0 {
		return c.Fail(tool.CodeValidation, errs[0], map[string]any{"errors": errs})
	}
	if err := delivery.WriteWU(ws.Root, w); err != nil {
		return err
	}
	ts := delivery.Timestamp(now)
	if err := delivery.AppendEvents(ws.Root, delivery.Event{Type: delivery.EventCreate, WUID: wuID, Timestamp: ts,
		Lane: lane, Title: title}); err != nil {
		return err
	}
	commit, err := c.Commit(ws, fmt.Sprintf("docs: create %s for %s", strings.ToLower(wuID), delivery.Title60(title)),
		w.Path, delivery.EventsFile)
	if err != nil {
		return err
	}
	v := n.Clone()
	v.Meta().Set("status", delivery.MemStatusClosed)
	v.Meta().Set("promoted_to", wuID)
	v.UpdatedAt = ts
	if err := delivery.AppendMemory(ws.Root, v); err != nil {
		return err
	}
	return c.Result(fmt.Sprintf("Promoted %s to %s: %s", id, wuID, title),
		memTriagePromoteData{NodeID: id, WUID: wuID, Path: w.Path, Commit: commit})
}

func triageArchive(c *convention.Call, ws *delivery.Workspace, m *delivery.Memory, id string) error {
	n, err := triageTarget(c, m, id)
	if err != nil {
		return err
	}
	ts := delivery.Timestamp(c.Runtime().Now())
	v := n.Clone()
	v.Meta().Set("status", delivery.MemStatusArchived)
	v.Meta().Set("archived_reason", c.String("reason"))
	v.UpdatedAt = ts
	if err := delivery.AppendMemory(ws.Root, v); err != nil {
		return err
	}
	return c.Result("Archived "+id, memTriageArchiveData{NodeID: id, Archived: true})
}

// firstSentence is the content up to its first '.', '!' or '?' (first line only), cut to
// titleMax characters (77 and "...").
func firstSentence(content string) string {
	s, _, _ := strings.Cut(content, "\n")
	if i := strings.IndexAny(s, ".!?"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > titleMax {
		s = string([]rune(s)[:titleMax-3]) + "..."
	}
	return s
}

// memTriageListData is mem:triage's JSON data when listing.
type memTriageListData struct {
	Nodes []*delivery.MemNode `json:"nodes"`
}

// memTriagePromoteData is mem:triage --promote's JSON data.
type memTriagePromoteData struct {
	NodeID string             `json:"node_id"`
	WUID   string             `json:"wu_id"`
	Path   string             `json:"path"`
	Commit *convention.Commit `json:"commit"`
}

// Committed gives the text renderer the commit for rule R4.
func (d memTriagePromoteData) Committed() *convention.Commit { return d.Commit }

// memTriageArchiveData is mem:triage --archive's JSON data.
type memTriageArchiveData struct {
	NodeID   string `json:"node_id"`
	Archived bool   `json:"archived"`
}
