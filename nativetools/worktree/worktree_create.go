package worktree

import (
	"context"
	"os"
	"path"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// CreateInput is worktree:create's input.
type CreateInput struct {
	Path   string `json:"path" jsonschema:"worktree directory, under the workspace's worktrees directory"`
	Branch string `json:"branch" jsonschema:"branch to check out; created from base when it does not exist"`
	Base   string `json:"base,omitempty" jsonschema:"start point of a new branch (default HEAD)"`
}

// AdjustSchema refuses a branch or base beginning with "-": both reach git as operands,
// where such a value would be read as an option.
func (CreateInput) AdjustSchema(s *jsonschema.Schema) {
	tool.Operands(s, "branch", "base")
	shell.MinLength(s, 1, "path")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "worktree:create",
		Description: "Create a git worktree under the worktrees directory, creating the branch when it does not exist.",
		Annotations: tool.Annotations{Title: "Create worktree"},
		Paths:       []tool.PathInput{{Property: "path", Access: tool.Write}},
	}, create))
}

func create(ctx context.Context, env *tool.Env, in CreateInput) tool.Output {
	var p shell.Problems
	p.Require("path", in.Path)
	p.Require("branch", in.Branch)
	if fail := p.Fail("worktree:create"); fail != nil {
		return *fail
	}
	c, ws, fail := shell.OpenWorkspace(ctx, env)
	if fail != nil {
		return *fail
	}
	abs, rel, err := delivery.Confine(ws.Root, ws.Root, in.Path, true)
	if err != nil {
		return shell.Fail(err)
	}
	dir := strings.TrimSuffix(path.Clean(ws.Config.WorktreesDir), "/")
	if rel == dir || !strings.HasPrefix(rel, dir+"/") {
		return tool.FailDetails(tool.CodePathOutsideWorkspace, map[string]any{"worktrees_dir": dir},
			"worktree:create: %s is not under the worktrees directory %s", in.Path, dir)
	}
	if _, err := os.Lstat(abs); err == nil {
		return tool.Fail(tool.CodeAlreadyExists, "worktree:create: %s already exists", rel)
	}
	base := in.Base
	if base == "" {
		base = "HEAD"
	}
	g := c.Git(ws.Root)
	created := !g.BranchExists(ctx, in.Branch)
	if err := g.WorktreeAdd(ctx, rel, in.Branch, created, base); err != nil {
		return shell.Fail(err)
	}
	head, err := c.Git(abs).Output(ctx, "rev-parse", "HEAD")
	if err != nil {
		return shell.Fail(err)
	}
	return tool.OK(map[string]any{"path": rel, "branch": in.Branch, "head": strings.TrimSpace(head), "branch_created": created})
}
