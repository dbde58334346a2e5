// Scaffolded by `cmdbridge scaffold wu:unlock-lane` from newWUUnlockLaneApp (commands/wu/wu_unlock_lane.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.WULaneLocks and ops.WUUnlockLane, minus the printing.

package wu

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// UnlockLaneInput is wu:unlock-lane's input: one field per adapter schema property, in the same order.
// The combination rules are the schema's (a given "" counts as given there), so no field
// needs to tell "" from absent.
type UnlockLaneInput struct {
	Lane   string `json:"lane,omitempty" jsonschema:"the lane whose lock to clear"`
	Reason string `json:"reason,omitempty" jsonschema:"why the lock is cleared (printed as an audit line)"`
	Force  bool   `json:"force,omitempty" jsonschema:"clear a lock that is not stale"`
	List   bool   `json:"list,omitempty" jsonschema:"list every lane lock (read-only)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (UnlockLaneInput) AdjustSchema(s *jsonschema.Schema) {
	if err := tool.ApplyConstraints(s, tool.Constraint{Kind: tool.Exclusive, Properties: []string{"list", "lane"}}, tool.Constraint{Kind: tool.Exclusive, Properties: []string{"list", "reason"}}, tool.Constraint{Kind: tool.Exclusive, Properties: []string{"list", "force"}}, tool.Constraint{Kind: tool.AnyOf, Properties: []string{"list", "lane"}}, tool.Constraint{Kind: tool.Requires, Properties: []string{"lane", "reason"}}); err != nil {
		panic(err)
	}
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "wu:unlock-lane",
		Description: "List lane locks, or clear one with an audit reason",
		Annotations: tool.Annotations{DestructiveHint: true},
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("list"))},
	}, runUnlockLane))
}

// runUnlockLane serves wu:unlock-lane natively: either ops.WULaneLocks on the warm
// workspace (list, read-only) or ops.WUUnlockLane in the call's journal (the command's
// combination rules are the schema's). The audit line the command prints on stderr goes
// to the call's log.
func runUnlockLane(ctx context.Context, env *tool.Env, in UnlockLaneInput) tool.Output {
	if in.List {
		return serveRead(ctx, env, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.WULaneLocksData, ops.Notes, error) {
			return ops.WULaneLocks(ctx, ws, rt)
		})
	}
	op := ops.WUUnlockLaneInput{Lane: in.Lane, Reason: in.Reason, Force: in.Force}
	return serve(ctx, env, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.WUUnlockLaneData, ops.Notes, error) {
		data, notes, err := ops.WUUnlockLane(ctx, ws, rt, op)
		if err == nil {
			fmt.Fprintf(env.Log, "[wu:unlock-lane] %s\n", data.Audit)
		}
		return data, notes, err
	})
}
