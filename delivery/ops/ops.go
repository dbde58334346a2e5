package ops

import (
	"context"
	"fmt"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
)

// Notes is what an operation reports besides its data and error.
type Notes struct {
	// Warnings are the non-fatal problems met, in order.
	Warnings []string
	// Headline is the text-mode headline (rule R1) of a command that prints its data as
	// fields; "" when the command prints its own layout (see Text).
	Headline string
	// Text is the text-mode output of a command with its own layout: the whole output for
	// commands that print it verbatim, or the lines after the fields for wu:status.
	Text string
}

// Warn records a warning.
func (n *Notes) Warn(format string, args ...any) {
	n.Warnings = append(n.Warnings, fmt.Sprintf(format, args...))
}

// Commit is a commit an operation made (corpus §2.2 "commit"): the same JSON as
// gitrepo.Commit, plus the pushed branch that text rule R4 names (not part of the JSON).
type Commit struct {
	SHA     string `json:"sha"`
	Subject string `json:"subject"`
	Pushed  bool   `json:"pushed"`
	Branch  string `json:"-"`
}

// CommitPaths applies corpus §2.4 to the root-relative paths an operation wrote: one
// pathspec commit, push failures recorded as warnings. It returns nil when nothing was
// committed (no git work tree, auto-commit off, or nothing changed).
func CommitPaths(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, notes *Notes, subject string, paths ...string) (*Commit, error) {
	cm, warnings, err := delivery.CommitArtifacts(ctx, ws, rt, subject, paths)
	for _, w := range warnings {
		notes.Warn("%s", w)
	}
	if err != nil || cm == nil {
		return nil, err
	}
	out := &Commit{SHA: cm.SHA, Subject: cm.Subject, Pushed: cm.Pushed}
	if cm.Pushed {
		out.Branch, _ = delivery.NewGit(ws.Root, rt).CurrentBranch(ctx)
	}
	return out, nil
}

// OpenWorkspace opens the workspace of a call started in dir (corpus §1.1: NO_WORKSPACE
// when there is none) and checks the configuration sections the operation is about to
// read, so a wrong-typed value is CONFIG_INVALID before anything else happens. keys is
// the operation's XKeys variable.
func OpenWorkspace(ctx context.Context, dir string, env gitrepo.LookupEnv, keys ...string) (*delivery.Workspace, error) {
	ws, err := delivery.Open(ctx, dir, env)
	if err != nil {
		return nil, err
	}
	if len(keys) > 0 {
		if err := ws.Config.Check(keys...); err != nil {
			return nil, err
		}
	}
	return ws, nil
}

// strPtr returns nil for "" and &s otherwise (JSON null for absent values).
func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// orEmpty turns a nil list into an empty one, so JSON shows [].
func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
