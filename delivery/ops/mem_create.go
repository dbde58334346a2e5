package ops

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// DiscoveryAliases are mem:create --type words meaning a discovery tagged with the word.
var DiscoveryAliases = []string{"bug", "idea", "question", "dependency"}

// DefaultMemCreateType is mem:create's --type default.
const DefaultMemCreateType = delivery.MemTypeDiscovery

// MemCreateInput is mem:create's input. WU and Session default to the current session's
// when WU is ""; DiscoveredFrom "" links nothing; Priority "" sets none. Type is the
// flag's value as given (the shells apply its default, DefaultMemCreateType).
type MemCreateInput struct {
	Message, WU, Type string
	Tags              []string
	DiscoveredFrom    string
	Session, Priority string
}

// Check rejects, before the workspace is opened, a message that is blank once trimmed and
// a type that is neither a node type nor an alias (VALIDATION, in that order).
func (in MemCreateInput) Check() error {
	if strings.TrimSpace(in.Message) == "" {
		return delivery.Errorf(tool.CodeValidation, "--message must not be empty")
	}
	if _, ok := delivery.LifecycleOf(in.Type); !ok && !slices.Contains(DiscoveryAliases, in.Type) {
		return delivery.Errorf(tool.CodeValidation, "invalid type %q: expected one of %s, or an alias %s",
			in.Type, strings.Join(delivery.MemoryTypes, ", "), strings.Join(DiscoveryAliases, ", "))
	}
	return nil
}

// MemCreateData is mem:create's JSON data.
type MemCreateData struct {
	Node         *delivery.MemNode      `json:"node"`
	Relationship *delivery.Relationship `json:"relationship"`
}

// MemCreate is corpus §3.4 mem:create: a node appended with content = message, the
// lifecycle of its type (an alias is a discovery tagged with the alias first), the id
// basis <message>-<created_at>, metadata.priority when given and de-duplicated tags; with
// DiscoveredFrom, the discovered_from relationship too (NOT_FOUND when that node does not
// exist or is deleted). Notes.Headline is "Created <id> (<type>)".
func MemCreate(_ context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in MemCreateInput) (MemCreateData, Notes, error) {
	var notes Notes
	if err := in.Check(); err != nil {
		return MemCreateData{}, notes, err
	}
	typ := in.Type
	var tags []string
	if slices.Contains(DiscoveryAliases, typ) {
		tags = append(tags, typ)
		typ = delivery.MemTypeDiscovery
	}
	for _, t := range in.Tags {
		if !slices.Contains(tags, t) {
			tags = append(tags, t)
		}
	}
	wu, session := SessionDefaults(ws, &notes, in.WU, in.Session)
	m, err := loadMemory(ws, &notes)
	if err != nil {
		return MemCreateData{}, notes, err
	}
	if in.DiscoveredFrom != "" {
		if p := m.Get(in.DiscoveredFrom); p == nil || p.Deleted() {
			return MemCreateData{}, notes, delivery.Errorf(tool.CodeNotFound, "memory node %s not found", in.DiscoveredFrom)
		}
	}
	now := delivery.Timestamp(rt.Now())
	n := newNode(m, typ, in.Message, now, in.Message+"-"+now)
	n.WUID, n.SessionID, n.Tags = wu, session, tags
	if in.Priority != "" {
		n.Meta().Set("priority", in.Priority)
	}
	if err := delivery.AppendMemory(ws.Root, n); err != nil {
		return MemCreateData{}, notes, err
	}
	var rel *delivery.Relationship
	if in.DiscoveredFrom != "" {
		rel = &delivery.Relationship{FromID: n.ID, ToID: in.DiscoveredFrom, Type: delivery.RelDiscoveredFrom, CreatedAt: now}
		if err := delivery.AppendRelationships(ws.Root, *rel); err != nil {
			return MemCreateData{}, notes, err
		}
	}
	notes.Headline = fmt.Sprintf("Created %s (%s)", n.ID, n.Type)
	return MemCreateData{Node: n, Relationship: rel}, notes, nil
}
