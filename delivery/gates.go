package delivery

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/proctree"
	"github.com/cmdbridge/cmdbridge/tool"
)

// GateResult is one gate run: {name, passed, exit_code, duration_ms} in command data.
type GateResult struct {
	Name       string `json:"name"`
	Passed     bool   `json:"passed"`
	ExitCode   int    `json:"exit_code"`
	DurationMS int64  `json:"duration_ms"`
}

// GateTelemetry is one .lumenflow/telemetry/gates.ndjson record (corpus §1.12).
type GateTelemetry struct {
	Timestamp  string  `json:"timestamp"`
	WUID       *string `json:"wu_id"`
	Lane       *string `json:"lane"`
	GateName   string  `json:"gate_name"`
	Passed     bool    `json:"passed"`
	DurationMS int64   `json:"duration_ms"`
}

// SelectGates returns the gates a run executes: with docsOnly only docs_only gates; with
// only, the named gates in configuration order (an unknown name is a VALIDATION error).
func SelectGates(gates []Gate, docsOnly bool, only []string) ([]Gate, error) {
	known := map[string]bool{}
	for _, g := range gates {
		known[g.Name] = true
	}
	for _, n := range only {
		if !known[n] {
			return nil, Errorf(tool.CodeValidation, "unknown gate %q", n)
		}
	}
	var out []Gate
	for _, g := range gates {
		if docsOnly && !g.DocsOnly {
			continue
		}
		if len(only) > 0 && !oneOf(g.Name, only) {
			continue
		}
		out = append(out, g)
	}
	return out, nil
}

// GateRun describes a run of gates.
type GateRun struct {
	// Dir is the checkout the gates run in (cwd of every gate).
	Dir string
	// Output receives the children's stdout and stderr (the command's stderr).
	Output io.Writer
	// Env holds extra KEY=VALUE entries for every gate, after the environment the
	// context carries (see [RunGates]).
	Env []string
	// Now is the clock used for telemetry timestamps and durations.
	Now func() time.Time
	// TelemetryRoot is the main checkout receiving telemetry; "" writes none.
	TelemetryRoot string
	// WUID and Lane go into telemetry (nil → null); see [LaneOfBranch].
	WUID, Lane *string
}

// RunGates runs every gate in order with /bin/sh -c, no fail-fast, DELIVERY_GATE=<name> in
// the environment. A gate's environment is the whole one ctx carries ([gitrepo.WithEnv]: a legacy
// command's process environment; a native call's git variables), then run.Env; on a
// context that carries none, only run.Env and DELIVERY_GATE. A gate past its timeout has
// its whole process tree killed (package proctree: daemons that left the group included)
// and exit code 124. Every gate runs in the jail of the host that serves the call
// (proctree.JailFrom: the context's, else the environment's proctree.JailEnv), where
// the host's state directory and keys are hidden; when the host asked for one and it
// cannot run (no bubblewrap), no gate runs and the error is SANDBOX_UNAVAILABLE.
// One telemetry record is appended per gate when TelemetryRoot is set, outside the
// run's write journal ([storage.KeepJSONL]): a failed gates run keeps its telemetry.
func RunGates(ctx context.Context, run GateRun, gates []Gate) ([]GateResult, error) {
	results := make([]GateResult, 0, len(gates))
	lookup, _, _ := gitrepo.EnvOf(ctx)
	jail, err := proctree.JailFrom(ctx, lookup)
	if err != nil {
		return results, Errorf(tool.CodeSandboxUnavailable, "gates: %v", err)
	}
	for _, g := range gates {
		start := run.Now()
		_, base, _ := gitrepo.EnvOf(ctx)
		env := append(append(append([]string{}, base...), run.Env...), "DELIVERY_GATE="+g.Name)
		code, err := runShell(ctx, jail, run.Dir, g.Run, env, run.Output, g.Timeout)
		if err != nil {
			return results, Errorf(tool.CodeSandboxUnavailable, "gate %s: %v", g.Name, err)
		}
		dur := run.Now().Sub(start).Milliseconds()
		res := GateResult{Name: g.Name, Passed: code == 0, ExitCode: code, DurationMS: dur}
		results = append(results, res)
		if run.TelemetryRoot != "" {
			rec := GateTelemetry{Timestamp: Timestamp(run.Now()), WUID: run.WUID, Lane: run.Lane, GateName: g.Name, Passed: res.Passed, DurationMS: dur}
			if err := storage.KeepJSONL(run.TelemetryRoot+"/"+GatesTelemetry, rec); err != nil {
				return results, Errorf(tool.CodeIOError, "gates telemetry: %w", err)
			}
		}
		if ctx.Err() != nil {
			return results, ctx.Err()
		}
	}
	return results, nil
}

// runShell runs script with /bin/sh -c, in the environment env, as a process tree (own
// cgroup or process group and marked descendants) in jail (nil: none), and returns its
// exit code (124 on timeout, 127 when it cannot start); the error is the jail's refusal.
// Whatever the outcome, nothing the gate started outlives it.
func runShell(ctx context.Context, jail *proctree.Jail, dir, script string, env []string, out io.Writer, timeout time.Duration) (int, error) {
	if timeout <= 0 {
		timeout = DefaultGateTimeout
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, "/bin/sh", "-c", script)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = out, out
	if err := jail.Confine(cmd); err != nil {
		return 0, err
	}
	tree := proctree.Attach(cmd)
	err := cmd.Run()
	tree.Kill()
	if tctx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
		return 124, nil
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, nil
	case errors.As(err, &ee):
		if ee.ExitCode() < 0 {
			return 124, nil // killed by a signal (our cancellation)
		}
		return ee.ExitCode(), nil
	}
	return 127, nil
}

// LaneOfBranch derives telemetry's wu_id and lane from the current branch of dir: a lane
// branch lane/<k>/wu-<n> gives WU-<n> and the defined lane whose kebab is <k>; otherwise
// both are nil.
func LaneOfBranch(ctx context.Context, ws *Workspace, dir string) (wuID, lane *string) {
	branch, err := (&gitrepo.Git{Dir: dir}).CurrentBranch(ctx)
	if err != nil {
		return nil, nil
	}
	k, id, ok := ParseLaneBranch(ws.Config.LaneBranchPrefix, branch)
	if !ok {
		return nil, nil
	}
	wuID = &id
	if l, ok := ws.Config.LaneByKebab(k); ok {
		lane = &l.Name
	} else if w, err := ReadWU(ws, id); err == nil && Kebab(w.Lane) == k {
		lane = &w.Lane
	}
	return wuID, lane
}
