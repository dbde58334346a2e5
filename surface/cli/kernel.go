package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"

	ucli "github.com/urfave/cli/v2"
	"golang.org/x/sys/unix"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/sandbox"
	"github.com/cmdbridge/cmdbridge/tool"
)

// openKernel builds the kernel for the workspace the global flags name; adjust runs on
// the configuration after the workspace's config file is applied (mcp's --profile).
func openKernel(c *ucli.Context, adjust ...func(*assemble.Config)) (*kernel.Kernel, error) {
	ws, err := existingWorkspace(c)
	if err != nil {
		return nil, err
	}
	cfg := assemble.Config{
		Config: kernel.Config{
			Workspace: ws,
			Pack:      hostOf(c).Pack,
			LookupEnv: os.LookupEnv,
			Approver:  terminalApprover(c.App.Reader, c.App.ErrWriter),
		},
		Commands: hostOf(c).Commands,
		Native:   hostOf(c).Native,
		Legacy:   adapter.Config{Binary: subprocessBinary(c), Prefix: hostOf(c).Prefix, Environ: hostOf(c).Environ},
		Runtime:  hostOf(c).Runtime,
		Sandbox:  &lazySandbox{host: hostOf(c)},
	}
	fc, err := loadWorkspaceConfig(ws)
	if err != nil {
		return nil, err
	}
	if err := fc.Apply(&cfg.Config); err != nil {
		return nil, err
	}
	// Every command that takes the view flags (viewFlags) serves only that view.
	if v := viewOf(c); v.Profile != "" || len(v.Tools) > 0 {
		cfg.View = v
	}
	for _, f := range adjust {
		f(&cfg)
	}
	// This process is about to hold the workspace's keys: processes of the same user
	// may no longer ptrace it or read its /proc/<pid>/{mem,environ,fd,root} (the
	// commands it spawns are reset to dumpable by execve, so proctree still reads
	// theirs). Workspace code also runs in a pid namespace where this process does not
	// exist (kernel.Kernel.Jail); this covers its unconfined opt-in and a server that
	// is not root. A failure changes nothing else.
	_ = unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	return assemble.Kernel(cfg)
}

// existingWorkspace is workspaceDir, refused unless it names an existing directory:
// a mistyped --workspace must fail before anything (keys, evidence, config) is created
// under it.
func existingWorkspace(c *ucli.Context) (string, error) {
	ws, err := workspaceDir(c)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(ws)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("workspace %s does not exist", ws)
		}
		return "", fmt.Errorf("workspace: %w", err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("workspace %s is not a directory", ws)
	}
	return ws, nil
}

// terminalApprover asks the person at the terminal; it is only consulted for calls made
// with --interactive.
func terminalApprover(in io.Reader, out io.Writer) kernel.Approver {
	if in == nil {
		in = os.Stdin
	}
	lines := bufio.NewReader(in)
	return kernel.ApproverFunc(func(ctx context.Context, req kernel.ApprovalRequest) (bool, error) {
		stdin := ""
		if req.StdinHash != "" {
			stdin = " and stdin of SHA-256 " + req.StdinHash
		}
		// Each property on a line of its own, display-changing characters escaped:
		// what is shown is what runs.
		input := "  " + strings.ReplaceAll(req.ShownInput(0), "\n", "\n  ")
		fmt.Fprintf(out, "cmdbridge: approve %s (rule %s)%s with input\n%s\n[y/N] ", req.Tool, req.Rule, stdin, input)
		answer := make(chan string, 1)
		go func() {
			s, _ := lines.ReadString('\n')
			answer <- strings.TrimSpace(strings.ToLower(s))
		}()
		select {
		case a := <-answer:
			return a == "y" || a == "yes", nil
		case <-ctx.Done():
			return false, ctx.Err()
		}
	})
}

// lazySandbox builds the sandbox lane on first use, so commands that never sandbox a
// call never pay for the host probe (two bwrap spawns). The runner is this executable's
// hidden SandboxRunCommand.
type lazySandbox struct {
	host   Host // its Executable and Self re-launch this command line
	once   sync.Once
	runner *sandbox.Runner
	err    error
}

func (l *lazySandbox) get() (*sandbox.Runner, error) {
	l.once.Do(func() {
		exe, err := executable(l.host)
		if err != nil {
			l.err = fmt.Errorf("sandbox runner: %w", err)
			return
		}
		runner := append(append([]string{exe}, l.host.Self...), SandboxRunCommand)
		l.runner, l.err = sandbox.New(sandbox.Config{Runner: runner})
	})
	return l.runner, l.err
}

// Host probes the host on first use; a runner that cannot be built counts as absent.
func (l *lazySandbox) Host() sandbox.Host {
	r, err := l.get()
	if err != nil {
		return sandbox.HostAbsent
	}
	return r.Host()
}

// Run runs req in the sandbox, or refuses it when no runner can be built.
func (l *lazySandbox) Run(ctx context.Context, req sandbox.Request) (tool.Output, sandbox.Info) {
	r, err := l.get()
	if err != nil {
		return tool.Fail(tool.CodeSandboxUnavailable, "%s needs the sandbox: %v", req.ToolName, err), sandbox.Info{Host: sandbox.HostAbsent}
	}
	return r.Run(ctx, req)
}
