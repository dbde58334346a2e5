package shell

import (
	"context"
	"fmt"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitcommit"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/tool"
)

// NoteGitCommit is the receipt note (tool.Env.Note) that says how a native call's
// commit was made: "in-process", or "git: <what needed the git binary>".
const NoteGitCommit = "git_commit"

// inProcessGit is a native call's gitrepo.Committer: package gitcommit, handing back
// to git whatever that package does not reproduce, and saying which on the receipt.
type inProcessGit struct{ env *tool.Env }

func (c inProcessGit) Commit(ctx context.Context, job gitrepo.CommitJob) (string, error) {
	r, err := gitcommit.Open(job.Dir, job.Environ)
	var p *gitcommit.Plan
	if err == nil {
		p, err = r.UseCache(commitCache(c.env)).Prepare(gitcommit.Request{Paths: job.Paths, Message: job.Subject, Date: job.Date,
			Default: gitcommit.Ident{Name: job.DefaultName, Email: job.DefaultEmail}})
	}
	if reason, ok := gitcommit.IsUnsupported(err); ok {
		c.env.Note(NoteGitCommit, "git: "+reason)
		return "", fmt.Errorf("%w: %s", gitrepo.ErrUseGit, reason)
	}
	if err != nil {
		return "", gitError(err)
	}
	c.env.Note(NoteGitCommit, "in-process")
	if len(p.Keep()) == 0 {
		return "", nil
	}
	if err := job.Staging(p.Keep()); err != nil {
		return "", err
	}
	changed, err := p.Stage()
	if err != nil {
		return "", gitError(err)
	}
	job.Staged()
	if !changed {
		return "", nil
	}
	if err := job.Committing(); err != nil {
		return "", err
	}
	h, err := p.Commit(ctx)
	if err != nil {
		return "", gitError(err)
	}
	return fmt.Sprintf("%x", h), nil
}

// commitCache is the host's gitcommit.Cache (kept in its tool.Store, for the commits
// of every workspace it serves), or nil for a host that keeps no store.
func commitCache(env *tool.Env) *gitcommit.Cache {
	if env.Store == nil {
		return nil
	}
	v, _, err := env.Store.Get("delivery/gitcommit", func() (any, error) { return new(gitcommit.Cache), nil })
	if err != nil {
		return nil // a closed store: no cache
	}
	return v.(*gitcommit.Cache)
}

// gitError is a failure of the in-process commit as the git binary's failures are:
// GIT_ERROR with git's words.
func gitError(err error) error {
	return &delivery.Error{Code: tool.CodeGitError, Message: err.Error(), Err: err}
}
