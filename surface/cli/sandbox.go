package cli

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/kernel/sandbox"
	"github.com/cmdbridge/cmdbridge/tool"
)

// SandboxRunCommand is the name of the hidden runner subcommand the sandbox lane starts
// inside bwrap: sandbox.Config{Runner: []string{<cmdbridge>, SandboxRunCommand}}.
const SandboxRunCommand = "__sandbox-run"

type sandboxRunOptions struct {
	IO       ioStreams
	Host     Host
	ResultFD int
}

// newSandboxRunCmd reads one sandbox.Request on stdin, runs it on the lane it names and
// writes the result on descriptor 3 (--result-fd), never on stdout.
func newSandboxRunCmd(f *factory, runF func(*sandboxRunOptions) error) *ucli.Command {
	opts := &sandboxRunOptions{IO: f.IO, Host: f.Host}
	return &ucli.Command{
		Name:   SandboxRunCommand,
		Usage:  "run one tool call inside the sandbox (internal: started by the sandbox lane)",
		Hidden: true,
		Flags: []ucli.Flag{
			&ucli.IntFlag{Name: "result-fd", Value: sandbox.ResultFD, Usage: "descriptor the result is written to", Destination: &opts.ResultFD},
		},
		Action: func(*ucli.Context) error {
			if runF != nil {
				return runF(opts)
			}
			return runSandboxRun(opts)
		},
	}
}

func runSandboxRun(opts *sandboxRunOptions) error {
	fd := opts.ResultFD
	if fd < 3 {
		return usageError("--result-fd must be 3 or more (0-2 are the tool's stdio), not %d", fd)
	}
	result := os.NewFile(uintptr(fd), "sandbox-result")
	if result == nil {
		return fmt.Errorf("--result-fd %d is not open", fd)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := sandbox.Serve(ctx, opts.IO.In, result, func(ctx context.Context, req sandbox.Request) tool.Output {
		return runSandboxed(ctx, opts.Host, req)
	}); err != nil {
		return fmt.Errorf("sandbox runner: %w", err)
	}
	return nil
}

// runSandboxed dispatches one request inside the sandbox: the native tool through its
// registry with a tool.Env built from the request, or the legacy command in-process on
// the adapter lane. Both see only the request's allowlisted environment.
func runSandboxed(ctx context.Context, host Host, req sandbox.Request) tool.Output {
	dir := req.Workspace
	if dir == "" {
		dir = os.TempDir()
	}
	switch req.HandlerEntry.Lane {
	case sandbox.LaneNative:
		t, ok := host.Native.Lookup(req.HandlerEntry.Native)
		if !ok {
			return tool.Fail(tool.CodeToolNotFound, "%s: no native tool %q in this runner", req.ToolName, req.HandlerEntry.Native)
		}
		lookup := tool.EnvFromMap(req.Env)
		now, ids := time.Now, tool.IDSource(randomHex{})
		if host.Runtime != nil {
			now, ids = host.Runtime(lookup)
		}
		env := &tool.Env{Dir: dir, Now: now, IDs: ids, LookupEnv: lookup,
			Stdin: bytes.NewReader(req.Stdin), Log: io.Discard, Interactive: false, Caller: req.Env[tool.CallerEnv]}
		return t.Call(ctx, env, req.Input)
	case sandbox.LaneAdapter:
		cmd, ok := host.Commands.Lookup(req.HandlerEntry.Command)
		if !ok {
			return tool.Fail(tool.CodeToolNotFound, "%s: no command %q in this runner", req.ToolName, req.HandlerEntry.Command)
		}
		return adapter.Call(ctx, cmd, req.Input, adapter.LaneAdapter, adapter.Config{Dir: dir, Env: req.Env, Stdin: req.Stdin})
	}
	return tool.Fail(tool.CodeExecutionFailed, "%s: sandbox runner cannot run lane %q (want %q or %q)",
		req.ToolName, req.HandlerEntry.Lane, sandbox.LaneNative, sandbox.LaneAdapter)
}

// randomHex draws ids from crypto/rand when the host has no runtime.
type randomHex struct{}

func (randomHex) Hex(_ string, n int) string {
	b := make([]byte, (n+1)/2)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)[:n]
}
