// Scaffolded by `cmdbridge scaffold mem:triage` from newMemTriageApp (commands/memory/mem_triage.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.MemTriage, minus printing.

package memory

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// TriageInput is mem:triage's input: one field per adapter schema property, in the same order.
// The schema refuses a wu, promote or archive that is not of its form ("" included), so an
// empty one is an absent one, and holds the command's rules: a given lane or reason
// satisfies them even when it is "" (an empty lane is then an unknown lane, an empty
// reason is recorded). An empty title is the derived one, as `--title=` is.
type TriageInput struct {
	WU      string `json:"wu,omitempty" jsonschema:"only discoveries of this work unit (default: the current session's) (WU-<n>)"`
	Promote string `json:"promote,omitempty" jsonschema:"discovery to promote to a new WU (mem-xxxx)"`
	Lane    string `json:"lane,omitempty" jsonschema:"lane of the promoted WU"`
	Title   string `json:"title,omitempty" jsonschema:"title of the promoted WU (default: the content's first sentence)"`
	Archive string `json:"archive,omitempty" jsonschema:"discovery to archive (mem-xxxx)"`
	Reason  string `json:"reason,omitempty" jsonschema:"why the discovery is archived"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (patterns, the command's
// rules), so the schema native.New infers equals the adapter's.
func (TriageInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "wu")
	shell.MemoryIDs(s, "promote", "archive")
	if err := tool.ApplyConstraints(s, tool.Constraint{Kind: tool.Exclusive, Properties: []string{"promote", "archive"}}, tool.Constraint{Kind: tool.Requires, Properties: []string{"promote", "lane"}}, tool.Constraint{Kind: tool.Requires, Properties: []string{"archive", "reason"}}); err != nil {
		panic(err)
	}
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "mem:triage",
		Domain:      "memory",
		Description: "List open discoveries, promote one to a bug WU, or archive one",
		Annotations: tool.Annotations{DestructiveHint: true},
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("promote"), tool.IsUnset("archive"))},
	}, runTriage))
}

// runTriage serves mem:triage natively: ops.MemTriage; listing reads the workspace
// (through the host's warm index when there is one); promote and archive write inside
// the call's journal.
func runTriage(ctx context.Context, env *tool.Env, in TriageInput) tool.Output {
	op := ops.MemTriageInput{WU: in.WU, Promote: in.Promote, Lane: in.Lane,
		Title: in.Title, Archive: in.Archive, Reason: in.Reason}
	return shell.Serve(ctx, env, shell.Op[any]{Write: in.Promote != "" || in.Archive != "",
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (any, ops.Notes, error) {
			return ops.MemTriage(ctx, ws, rt, op)
		}})
}
