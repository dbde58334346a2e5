// Package shell holds what the delivery native tools share: the per-call runtime and
// workspace built from tool.Env, a git runner that passes only declared git variables,
// and the mapping of delivery errors to tool.Output. It reads no process globals.
package shell

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Call is what a delivery native tool works with.
type Call struct {
	Env *tool.Env
	RT  *delivery.Runtime
}

// Start builds the call's §2.5 runtime once: the environment validated as the legacy main
// validates its process's (a bad variable is the USAGE failure), the clock and the ids
// the host's, from tool.Env (Now, IDs), and commits made in-process (package gitcommit,
// the git binary for what it does not reproduce; the receipt's git_commit note says
// which).
func Start(env *tool.Env) (*Call, *tool.Output) {
	rt, err := delivery.NewRuntime(env.Dir, gitrepo.LookupEnv(lookup(env)))
	if err != nil {
		out := Fail(err)
		return nil, &out
	}
	rt.UseHost(env.Now, env.IDs)
	rt.UseCommitter(inProcessGit{env: env})
	return &Call{Env: env, RT: rt}, nil
}

func lookup(env *tool.Env) func(string) (string, bool) {
	if env.LookupEnv == nil {
		return tool.EnvFromMap(nil)
	}
	return env.LookupEnv
}

// Workspace opens the workspace the call runs in (§1.1).
func (c *Call) Workspace(ctx context.Context) (*delivery.Workspace, error) {
	return delivery.Open(ctx, c.Env.Dir, gitrepo.LookupEnv(lookup(c.Env)))
}

// GitRoot is the directory git tools work in: the workspace root when there is a
// workspace, otherwise the top of the enclosing repository. Outside any repository it
// is GIT_ERROR; it never initialises one.
func (c *Call) GitRoot(ctx context.Context) (string, error) {
	if ws, err := c.Workspace(ctx); err == nil {
		return ws.Root, nil
	}
	top, err := c.Git(c.Env.Dir).Output(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", delivery.Errorf(tool.CodeGitError, "%s is not inside a git repository", c.Env.Dir)
	}
	return filepath.Clean(strings.TrimSpace(top)), nil
}

// gitVars are the git variables a call may declare (§2.5 pins the first two in tests).
var gitVars = []string{"GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM"}

// Git returns a git runner in dir following the runtime's DELIVERY_NOW, with the
// call's declared git variables.
func (c *Call) Git(dir string) *gitrepo.Git {
	g := delivery.NewGit(dir, c.RT)
	for _, k := range gitVars {
		if v, ok := lookup(c.Env)(k); ok {
			g.Env = append(g.Env, k+"="+v)
		}
	}
	return g
}

// Fail maps any error to a failed Output with its delivery code.
func Fail(err error) tool.Output {
	te := delivery.ToolError(err)
	return tool.Output{Error: te}
}

// Validation is the VALIDATION failure listing every violation in details.errors.
func Validation(name string, problems []string) tool.Output {
	return tool.FailDetails(tool.CodeValidation, map[string]any{"errors": problems},
		"%s: %s", name, strings.Join(problems, "; "))
}

// Problems collects a tool's input violations so they are reported together, as one
// VALIDATION failure listing every one of them.
type Problems []string

// Require records "<field> must not be empty" when value is empty.
func (p *Problems) Require(field, value string) {
	if value == "" {
		*p = append(*p, field+" must not be empty")
	}
}

// Check records msg unless ok.
func (p *Problems) Check(ok bool, msg string) {
	if !ok {
		*p = append(*p, msg)
	}
}

// Fail returns the VALIDATION failure for tool name, or nil when nothing was recorded.
func (p Problems) Fail(name string) *tool.Output {
	if len(p) == 0 {
		return nil
	}
	out := Validation(name, p)
	return &out
}

// OpenWorkspace starts the call and opens its workspace (§1.1); on failure it returns the
// Output to give back instead.
func OpenWorkspace(ctx context.Context, env *tool.Env) (*Call, *delivery.Workspace, *tool.Output) {
	c, fail := Start(env)
	if fail != nil {
		return nil, nil, fail
	}
	ws, err := c.Workspace(ctx)
	if err != nil {
		out := Fail(err)
		return nil, nil, &out
	}
	return c, ws, nil
}

// Journaled runs one operation of the call on ws inside the call's write journal
// (storage.Journal), as the legacy convention does: when the operation fails, every
// write it made is rolled back, so the workspace is as the call found it; when it
// succeeds, the journal is discarded. A rollback that itself fails is a warning.
// Beginning the journal replays one a killed call left; when it restored anything, ws
// is read again from the disk before the operation runs.
func Journaled[D any](ctx context.Context, rt *delivery.Runtime, ws *delivery.Workspace, op func() (D, ops.Notes, error)) (D, ops.Notes, error) {
	j, err := rt.Journal(ctx, ws.Root)
	if err != nil {
		var zero D
		return zero, ops.Notes{}, err
	}
	if r := j.Replayed(); r.Found && !r.Committed {
		fresh, err := delivery.Load(ws.Root, ws.Checkout)
		if err != nil {
			_ = rt.EndJournal(ctx, false)
			var zero D
			return zero, ops.Notes{}, err
		}
		*ws = *fresh
	}
	data, notes, err := op()
	if rerr := rt.EndJournal(ctx, err != nil); rerr != nil {
		notes.Warnings = append(notes.Warnings, "roll back: "+rerr.Error())
	}
	return data, notes, err
}
