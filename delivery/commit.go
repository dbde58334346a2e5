package delivery

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
)

// NewGit returns a [gitrepo.Git] for dir whose commit dates follow the runtime's frozen
// clock and whose environment is the runtime's ([Runtime.Environ]): a native call's git
// sees the call's configuration, identity and discovery variables, as the command's own
// process would, never the host's. Its commits are made in-process by the runtime's
// committer when one is set ([Runtime.UseCommitter]).
func NewGit(dir string, rt *Runtime) *gitrepo.Git {
	g := &gitrepo.Git{Dir: dir}
	if rt != nil {
		g.Now = rt.NowString()
		g.Environ = rt.Environ()
		g.Committer = rt.committer
	}
	return g
}

// InWorkTree is [gitrepo.InWorkTree] in the runtime's environment.
func (r *Runtime) InWorkTree(ctx context.Context, dir string) bool {
	return gitrepo.InWorkTreeEnv(ctx, dir, r.env, r.Environ())
}

// CommitArtifacts is corpus §2.4 for a command of ws: when the root is in a git work tree and
// git.auto_commit is not false, commit paths with subject and push when git.push is true.
// It returns nil when nothing was committed, and push failures as warnings.
func CommitArtifacts(ctx context.Context, ws *Workspace, rt *Runtime, subject string, paths []string) (*gitrepo.Commit, []string, error) {
	if err := ws.Config.Check("software_delivery.git"); err != nil {
		return nil, nil, err
	}
	if !ws.Config.AutoCommit || !inWorkTreeOf(ctx, rt, ws.Root) {
		return nil, nil, nil
	}
	g := NewGit(ws.Root, rt)
	c, err := g.CommitPaths(ctx, subject, paths)
	if err != nil || c == nil {
		return nil, nil, err
	}
	var warnings []string
	if ws.Config.Push {
		var w string
		c.Pushed, w = g.Push(ctx)
		if w != "" {
			warnings = append(warnings, w)
		}
	}
	return c, warnings, nil
}

// inWorkTreeOf is rt.InWorkTree, or InWorkTree without a runtime.
func inWorkTreeOf(ctx context.Context, rt *Runtime, dir string) bool {
	if rt == nil {
		return gitrepo.InWorkTree(ctx, dir)
	}
	return rt.InWorkTree(ctx, dir)
}
