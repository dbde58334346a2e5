package wu

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/proctree"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:sandbox",
		New: newWUSandboxApp, Main: convention.Main(newWUSandboxApp)})
}

func newWUSandboxApp() *cli.App {
	return convention.App(convention.Spec{
		Name:        "wu:sandbox",
		Usage:       "Run a command in a WU's worktree (directory isolation only, no OS sandbox)",
		Destructive: true,
		Flags: []cli.Flag{
			convention.WU("id", "the WU whose worktree to run in", true),
			&cli.StringFlag{Name: "worktree", Usage: "directory to run in (inside the workspace)"},
			convention.Duration("timeout", "kill the command's process group after this long", "10m"),
		},
		Args: []convention.Arg{{Name: "command", Required: true, Passthrough: true, Usage: "the command to run and its arguments"}},
		// The action checks the passthrough (argv checking cannot see past "--").
		Enforces: []convention.Rule{convention.Required("command")},
		Paths:    map[string]string{"worktree": "write"},
		RunsCode: true,
		Action:   wuSandbox,
	})
}

// sandboxCap bounds each captured stream in --json mode.
const sandboxCap = 1 << 20

func wuSandbox(c *convention.Call) error {
	argv := c.Passthrough()
	if len(argv) == 0 {
		// The passthrough is only visible here; argv checking cannot see past "--".
		return delivery.Errorf(tool.CodeUsage, "missing required argument COMMAND")
	}
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	w, err := delivery.ReadWU(ws, c.Value("id"))
	if err != nil {
		return err
	}
	dir, err := sandboxDir(c, ws, w)
	if err != nil {
		return err
	}
	// wu:sandbox writes nothing itself, and the command it runs may be a delivery writer
	// of this worktree: end the run's journal, and with it the worktree's journal lock,
	// which the command would otherwise wait for forever.
	if err := c.Runtime().EndJournal(c.Context(), false); err != nil {
		return err
	}
	timeout, _ := convention.ParseDuration(c.Value("timeout"))
	ctx, cancel := context.WithTimeout(c.Context(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DELIVERY_WU_ID="+w.ID)
	// Served by cmdbridge, the command runs in the host's jail, where its state
	// directory and keys are hidden and .git is read-only.
	jail, err := proctree.JailFrom(ctx, os.LookupEnv)
	if err == nil {
		err = jail.Confine(cmd)
	}
	if err != nil {
		return delivery.Errorf(tool.CodeSandboxUnavailable, "wu:sandbox: %v", err)
	}
	// The command runs as a process tree: on timeout its whole tree dies, daemons that
	// left the process group included, and nothing it started outlives the call.
	tree := proctree.Attach(cmd)
	var stdout, stderr cappedBuffer
	if c.JSON {
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
	} else {
		cmd.Stdout, cmd.Stderr = os.Stdout, c.Stderr()
	}
	data := wuSandboxData{ID: w.ID, Dir: relDir(ws, dir), Command: argv}
	runErr := cmd.Run()
	tree.Kill()
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		data.ExitCode, data.TimedOut = 124, true
	case runErr == nil:
	case errors.As(runErr, &exitErr):
		data.ExitCode = exitErr.ExitCode()
		if data.ExitCode < 0 { // killed by a signal
			data.ExitCode = 128 + int(exitErr.Sys().(syscall.WaitStatus).Signal())
		}
	default:
		data.ExitCode = 127
		fmt.Fprintf(cmd.Stderr, "%v\n", runErr)
	}
	data.Stdout, data.Stderr = stdout.String(), stderr.String()
	switch {
	case data.TimedOut:
		c.Partial(data)
		return delivery.Errorf(tool.CodeCheckFailed, "command timed out after %s", c.Value("timeout"))
	case data.ExitCode != 0:
		c.Partial(data)
		return delivery.Errorf(tool.CodeCheckFailed, "command exited with code %d", data.ExitCode)
	}
	return c.Print("", data)
}

// sandboxDir is --worktree (confined to the workspace), else the WU's existing worktree,
// else the checkout the command was started in.
func sandboxDir(c *convention.Call, ws *delivery.Workspace, w *delivery.WU) (string, error) {
	if p := c.String("worktree"); p != "" {
		cwd, err := c.Dir()
		if err != nil {
			return "", err
		}
		abs, rel, err := delivery.Confine(ws.Root, cwd, p, false)
		if err != nil {
			return "", err
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return "", delivery.Errorf(tool.CodeNotFound, "worktree %s is not a directory", rel)
		}
		return abs, nil
	}
	if w.WorktreePath != "" {
		if fi, err := os.Stat(ws.Abs(w.WorktreePath)); err == nil && fi.IsDir() {
			return ws.Abs(w.WorktreePath), nil
		}
	}
	return ws.Checkout, nil
}

// cappedBuffer keeps the first sandboxCap bytes written and marks the cut.
type cappedBuffer struct {
	buf  bytes.Buffer
	over bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	room := sandboxCap - b.buf.Len()
	if len(p) > room {
		b.buf.Write(p[:max(room, 0)])
		b.over = true
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (b *cappedBuffer) String() string {
	if b.over {
		return b.buf.String() + "…[truncated]"
	}
	return b.buf.String()
}

var _ io.Writer = (*cappedBuffer)(nil)

// wuSandboxData is wu:sandbox's JSON data (also the data of a CHECK_FAILED failure).
type wuSandboxData struct {
	ID       string   `json:"id"`
	Dir      string   `json:"dir"`
	Command  []string `json:"command"`
	ExitCode int      `json:"exit_code"`
	TimedOut bool     `json:"timed_out"`
	Stdout   string   `json:"stdout"`
	Stderr   string   `json:"stderr"`
}
