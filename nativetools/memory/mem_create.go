// Scaffolded by `cmdbridge scaffold mem:create` from newMemCreateApp (commands/memory/mem_create.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.MemCreate, minus printing.

package memory

import (
	"context"
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// CreateInput is mem:create's input: one field per adapter schema property, in the same order.
// The schema requires message and refuses a wu, discovered_from or priority that is not
// of its form ("" included), so an empty one is an absent one. Type is a pointer: an absent
// type is "discovery" while "" is not a type (VALIDATION).
type CreateInput struct {
	Message        string   `json:"message" jsonschema:"node content (non-empty)"`
	WU             string   `json:"wu,omitempty" jsonschema:"work unit (default: the current session's) (WU-<n>)"`
	Type           *string  `json:"type,omitempty" jsonschema:"node type, or bug, idea, question, dependency (a tagged discovery)"`
	Tags           []string `json:"tags,omitempty" jsonschema:"tag (repeatable)"`
	DiscoveredFrom string   `json:"discovered_from,omitempty" jsonschema:"node this one was discovered from (mem-xxxx)"`
	Session        string   `json:"session,omitempty" jsonschema:"session uuid (default: the current session's)"`
	Priority       string   `json:"priority,omitempty" jsonschema:"priority (P0|P1|P2|P3)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (default, patterns, choices),
// so the schema native.New infers equals the adapter's.
func (CreateInput) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["type"].Default = json.RawMessage(`"discovery"`)
	shell.WUIDs(s, "wu")
	shell.MemoryIDs(s, "discovered_from")
	shell.Choices(s, "priority", delivery.Priorities...)
	shell.NonBlank(s, "message")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "mem:create",
		Domain:      "memory",
		Description: "Create a memory node (a discovery by default)",
	}, runCreate))
}

// runCreate serves mem:create natively: the message and type checks (VALIDATION, before
// the workspace, as in the command), then the workspace and ops.MemCreate inside the
// call's journal.
func runCreate(ctx context.Context, env *tool.Env, in CreateInput) tool.Output {
	op := ops.MemCreateInput{Message: in.Message, WU: in.WU,
		Type: shell.Or(in.Type, ops.DefaultMemCreateType), Tags: in.Tags,
		DiscoveredFrom: in.DiscoveredFrom, Session: in.Session, Priority: in.Priority}
	return shell.Serve(ctx, env, shell.Op[ops.MemCreateData]{Argv: op.Check(), Append: true,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.MemCreateData, ops.Notes, error) {
			return ops.MemCreate(ctx, ws, rt, op)
		}})
}
