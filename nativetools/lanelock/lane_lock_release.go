package lanelock

import (
	"context"

	lock "github.com/cmdbridge/cmdbridge/delivery/lanelock"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// ReleaseInput is lane-lock:release's input.
type ReleaseInput struct {
	Lane  string `json:"lane" jsonschema:"lane name"`
	Owner string `json:"owner" jsonschema:"owner releasing the lock"`
	Force bool   `json:"force,omitempty" jsonschema:"release even when another owner holds the lock"`
}

// AdjustSchema refuses what the handler refuses for its shape: an empty lane or owner.
func (ReleaseInput) AdjustSchema(s *jsonschema.Schema) {
	shell.MinLength(s, 1, "lane", "owner")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "lane-lock:release",
		Description: "Release a lane lock held by owner (or any owner with force); not releasing is not an error.",
		Annotations: tool.Annotations{Title: "Release lane lock", DestructiveHint: true, IdempotentHint: true},
		// Only force takes away a lock another owner holds.
		Effects: []tool.Effect{tool.WritesWhen(tool.IsUnset("force"))},
	}, release))
}

func release(ctx context.Context, env *tool.Env, in ReleaseInput) tool.Output {
	var p shell.Problems
	p.Require("lane", in.Lane)
	p.Require("owner", in.Owner)
	if fail := p.Fail("lane-lock:release"); fail != nil {
		return *fail
	}
	_, ws, fail := shell.OpenWorkspace(ctx, env)
	if fail != nil {
		return *fail
	}
	res, err := lock.Release(ws.Root, in.Lane, in.Owner, in.Force)
	if err != nil {
		return tool.Fail(tool.CodeIOError, "lane-lock:release: %v", err)
	}
	return tool.OK(map[string]any{"released": res.Released, "lock_path": res.LockPath, "reason": res.Reason})
}
