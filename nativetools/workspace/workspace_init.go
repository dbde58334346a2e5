// Scaffolded by `cmdbridge scaffold workspace:init` from newWorkspaceInitApp (commands/workspace/workspace_init.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.WorkspaceInit, minus printing.

package workspace

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// InitInput is workspace:init's input: one field per adapter schema property, in the same order.
type InitInput struct {
	Output string `json:"output,omitempty" jsonschema:"workspace directory (default: the current directory)"`
	Name   string `json:"name,omitempty" jsonschema:"workspace name (default: the directory's base name)"`
	Force  bool   `json:"force,omitempty" jsonschema:"overwrite an existing workspace.yaml"`
	Yes    bool   `json:"yes,omitempty" jsonschema:"accepted for compatibility; the command never asks"`
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "workspace:init",
		Description: "Create workspace.yaml, the default directories and the runtime .gitignore entries (never commits)",
		Annotations: tool.Annotations{DestructiveHint: true},
		Effects:     []tool.Effect{tool.WritesWhen(tool.IsUnset("force"))},
		Paths:       []tool.PathInput{{Property: "output", Access: tool.Write}},
	}, runInit))
}

// runInit serves workspace:init natively: the environment, then ops.WorkspaceInit in the
// call's directory. It needs no workspace (it makes one) and never commits, so it runs
// outside the write journal, as the command does.
func runInit(ctx context.Context, env *tool.Env, in InitInput) tool.Output {
	c, fail := shell.Start(env)
	if fail != nil {
		return fail.WithMeta("warnings", []string{})
	}
	data, notes, err := ops.WorkspaceInit(ctx, c.RT, ops.WorkspaceInitInput{Dir: env.Dir,
		Output: in.Output, Name: in.Name, Force: in.Force})
	return shell.Result(data, notes, err)
}
