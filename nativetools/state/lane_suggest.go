// Scaffolded by `cmdbridge scaffold lane:suggest` from newLaneSuggestApp (commands/state/lane_suggest.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.LaneSuggest, minus printing.

package state

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// SuggestInput is lane:suggest's input: one field per adapter schema property, in the same order.
type SuggestInput struct {
	Output string `json:"output,omitempty" jsonschema:"write the YAML snippet to this file (otherwise nothing is written)"`
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "lane:suggest",
		Domain:      "state",
		Description: "Propose lane definitions for directories no lane covers (deterministic, offline)",
		Annotations: tool.Annotations{DestructiveHint: true, IdempotentHint: true},
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("output"))},
		Paths:       []tool.PathInput{{Property: "output", Access: tool.Write}},
	}, runSuggest))
}

// runSuggest serves lane:suggest natively: the environment, the workspace with the lanes
// and directories sections checked, then ops.LaneSuggest, with --output resolved against
// the call's directory. Without --output the call is a read through the host's warm index;
// with it, a write: the workspace read from disk, the operation in the call's write
// journal, the index refreshed after.
func runSuggest(ctx context.Context, env *tool.Env, in SuggestInput) tool.Output {
	c, fail := shell.Start(env)
	if fail != nil {
		return fail.WithMeta("warnings", []string{})
	}
	op := ops.LaneSuggestInput{Dir: env.Dir, Output: in.Output}
	if in.Output == "" {
		ws, err := shell.ReadWorkspace(ctx, env, ops.LaneSuggestKeys...)
		if err != nil {
			return shell.Result(nil, ops.Notes{}, err)
		}
		data, notes, err := ops.LaneSuggest(ctx, ws, c.RT, op)
		return shell.Result(data, notes, err)
	}
	ws, err := ops.OpenWorkspace(ctx, env.Dir, shell.LookupEnv(env), ops.LaneSuggestKeys...)
	if err != nil {
		return shell.Result(nil, ops.Notes{}, err)
	}
	data, notes, err := shell.Journaled(ctx, c.RT, ws, func() (ops.LaneSuggestData, ops.Notes, error) {
		return ops.LaneSuggest(ctx, ws, c.RT, op)
	})
	shell.Wrote(env, ws.Root)
	return shell.Result(data, notes, err)
}
