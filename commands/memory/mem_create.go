package memory

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
	commands.Register(legacy.Command{Name: "mem:create", Domain: "memory",
		New: newMemCreateApp, Main: convention.Main(newMemCreateApp)})
}

func newMemCreateApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "mem:create",
		Usage: "Create a memory node (a discovery by default)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "message", Usage: "node content (non-empty)", Required: true},
			convention.WU("wu", "work unit (default: the current session's)", false),
			&cli.StringFlag{Name: "type", Usage: "node type, or bug, idea, question, dependency (a tagged discovery)", Value: "discovery"},
			&cli.StringSliceFlag{Name: "tags", Usage: "tag (repeatable)"},
			convention.MEM("discovered-from", "node this one was discovered from", false),
			&cli.StringFlag{Name: "session", Usage: "session uuid (default: the current session's)"},
			convention.Enum("priority", "priority", "", "P0", "P1", "P2", "P3"),
		},
		Action: memCreate,
	})
}

// discoveryAliases are --type words meaning a discovery tagged with the word.
var discoveryAliases = []string{"bug", "idea", "question", "dependency"}

func memCreate(c *convention.Call) error {
	message, typ := c.String("message"), c.String("type")
	if strings.TrimSpace(message) == "" {
		return c.Failf(tool.CodeValidation, "--message must not be empty")
	}
	var tags []string
	if slices.Contains(discoveryAliases, typ) {
		tags = append(tags, typ)
		typ = delivery.MemTypeDiscovery
	} else if _, ok := delivery.LifecycleOf(typ); !ok {
		return c.Failf(tool.CodeValidation, "invalid type %q: expected one of %s, or an alias %s",
			typ, strings.Join(delivery.MemoryTypes, ", "), strings.Join(discoveryAliases, ", "))
	}
	for _, t := range c.Strings("tags") {
		if !slices.Contains(tags, t) {
			tags = append(tags, t)
		}
	}
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	wu, session := sessionDefaults(c, ws, c.Value("wu"), c.String("session"))
	m, err := loadMemory(c, ws)
	if err != nil {
		return err
	}
	parent := c.Value("discovered-from")
	if parent != "" {
		if p := m.Get(parent); p == nil || p.Deleted() {
			return c.Failf(tool.CodeNotFound, "memory node %s not found", parent)
		}
	}
	now := delivery.Timestamp(c.Runtime().Now())
	n := newNode(m, typ, message, now, message+"-"+now)
	n.WUID, n.SessionID, n.Tags = wu, session, tags
	if p := c.Value("priority"); p != "" {
		n.Meta().Set("priority", p)
	}
	if err := delivery.AppendMemory(ws.Root, n); err != nil {
		return err
	}
	var rel *delivery.Relationship
	if parent != "" {
		rel = &delivery.Relationship{FromID: n.ID, ToID: parent, Type: delivery.RelDiscoveredFrom, CreatedAt: now}
		if err := delivery.AppendRelationships(ws.Root, *rel); err != nil {
			return err
		}
	}
	return c.Result(fmt.Sprintf("Created %s (%s)", n.ID, n.Type), memCreateData{Node: n, Relationship: rel})
}

// memCreateData is mem:create's JSON data.
type memCreateData struct {
	Node         *delivery.MemNode      `json:"node"`
	Relationship *delivery.Relationship `json:"relationship"`
}
