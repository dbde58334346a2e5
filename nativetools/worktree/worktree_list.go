package worktree

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// ListInput is worktree:list's (empty) input.
type ListInput struct{}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "worktree:list",
		Description:  "List git worktrees with the WU and lane parsed from lane branches.",
		Annotations:  tool.Annotations{Title: "List worktrees", ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, list))
}

// Entry is one worktree in worktree:list's data.
type Entry struct {
	Path      string  `json:"path"`
	Head      string  `json:"head"`
	Branch    *string `json:"branch"`
	Detached  bool    `json:"detached"`
	Locked    bool    `json:"locked"`
	Prunable  bool    `json:"prunable"`
	WUID      *string `json:"wu_id"`
	LaneKebab *string `json:"lane_kebab"`
}

func list(ctx context.Context, env *tool.Env, in ListInput) tool.Output {
	c, fail := shell.Start(env)
	if fail != nil {
		return *fail
	}
	root, err := c.GitRoot(ctx)
	if err != nil {
		return shell.Fail(err)
	}
	prefix := "lane/"
	if ws, err := c.Workspace(ctx); err == nil {
		prefix = ws.Config.LaneBranchPrefix
	}
	wts, err := c.Git(root).WorktreeList(ctx)
	if err != nil {
		return shell.Fail(err)
	}
	out := []Entry{}
	for _, w := range wts {
		e := Entry{Path: relTo(root, w.Path), Head: w.Head, Detached: w.Detached, Locked: w.Locked, Prunable: w.Prunable}
		if w.Branch != "" {
			b := w.Branch
			e.Branch = &b
			if kebab, id, ok := delivery.ParseLaneBranch(prefix, b); ok {
				e.WUID, e.LaneKebab = &id, &kebab
			}
		}
		out = append(out, e)
	}
	return tool.OK(map[string]any{"worktrees": out})
}

// relTo gives p relative to root with / separators, or p itself when it lies outside.
func relTo(root, p string) string {
	rr, err1 := filepath.EvalSymlinks(root)
	rp, err2 := filepath.EvalSymlinks(p)
	if err1 != nil || err2 != nil {
		rr, rp = root, p
	}
	r, err := filepath.Rel(rr, rp)
	if err != nil || r == ".." || strings.HasPrefix(r, "../") {
		return p
	}
	return filepath.ToSlash(r)
}
