package worktree

import (
	"context"
	"path/filepath"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// RemoveInput is worktree:remove's input.
type RemoveInput struct {
	Path         string `json:"path" jsonschema:"worktree directory to remove"`
	Force        bool   `json:"force,omitempty" jsonschema:"remove even with uncommitted changes, and delete the branch even when it is not merged"`
	DeleteBranch bool   `json:"delete_branch,omitempty" jsonschema:"also delete the worktree's branch"`
}

// AdjustSchema refuses an empty path, as the handler does.
func (RemoveInput) AdjustSchema(s *jsonschema.Schema) {
	shell.MinLength(s, 1, "path")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "worktree:remove",
		Description: "Remove a git worktree and optionally its branch.",
		Annotations: tool.Annotations{Title: "Remove worktree", DestructiveHint: true},
		Paths:       []tool.PathInput{{Property: "path", Access: tool.Write}},
	}, remove))
}

func remove(ctx context.Context, env *tool.Env, in RemoveInput) tool.Output {
	if in.Path == "" {
		return shell.Validation("worktree:remove", []string{"path must not be empty"})
	}
	c, fail := shell.Start(env)
	if fail != nil {
		return *fail
	}
	root, err := c.GitRoot(ctx)
	if err != nil {
		return shell.Fail(err)
	}
	abs, rel, err := delivery.Confine(root, root, in.Path, true)
	if err != nil {
		return shell.Fail(err)
	}
	g := c.Git(root)
	wts, err := g.WorktreeList(ctx)
	if err != nil {
		return shell.Fail(err)
	}
	var found *gitrepo.Worktree
	for i, w := range wts {
		if i > 0 && samePath(w.Path, abs) { // the first entry is the main worktree
			found = &wts[i]
			break
		}
	}
	if found == nil {
		return tool.Fail(tool.CodeNotFound, "worktree:remove: no worktree at %s", rel)
	}
	if !in.Force {
		dirty, err := c.Git(abs).Dirty(ctx)
		if err != nil {
			return shell.Fail(err)
		}
		if dirty {
			return tool.FailDetails(tool.CodeDirtyWorktree, map[string]any{"path": rel},
				"worktree:remove: %s has uncommitted changes (use force)", rel)
		}
	}
	if err := g.WorktreeRemove(ctx, rel, in.Force); err != nil {
		return shell.Fail(err)
	}
	var branch *string
	deleted := false
	if found.Branch != "" {
		b := found.Branch
		branch = &b
		if in.DeleteBranch {
			if err := g.BranchDelete(ctx, b, in.Force); err != nil {
				return shell.Fail(err)
			}
			deleted = true
		}
	}
	return tool.OK(map[string]any{"path": rel, "removed": true, "branch": branch, "branch_deleted": deleted})
}

func samePath(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return ra == rb
}
