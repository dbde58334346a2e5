package ops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/proctree"
	"github.com/cmdbridge/cmdbridge/tool"
)

// sandboxCap bounds each captured stream.
const sandboxCap = 1 << 20

// WUSandboxInput is wu:sandbox's input.
type WUSandboxInput struct {
	ID string
	// Worktree is the directory to run in (confined to the workspace, relative to Dir);
	// "" is the WU's existing worktree, else the checkout the call started in.
	Worktree string
	// Dir is the directory the call started in.
	Dir string
	// Command is the program and its arguments.
	Command []string
	// Timeout ends the command's process tree; TimeoutText is how the caller wrote it.
	Timeout     time.Duration
	TimeoutText string
	// Stdout and Stderr, when set, receive the command's streams as they come (the
	// command's text mode); otherwise both are captured, up to 1 MiB each, into the data.
	Stdout, Stderr io.Writer
}

// WUSandboxData is wu:sandbox's JSON data (also the data of a CHECK_FAILED failure).
type WUSandboxData struct {
	ID       string   `json:"id"`
	Dir      string   `json:"dir"`
	Command  []string `json:"command"`
	ExitCode int      `json:"exit_code"`
	TimedOut bool     `json:"timed_out"`
	Stdout   string   `json:"stdout"`
	Stderr   string   `json:"stderr"`
}

// WUSandbox is corpus §3.1 wu:sandbox: the command run in the WU's directory (Worktree,
// else its worktree, else the starting checkout) with DELIVERY_WU_ID set, in the
// environment the context carries (the process's for the command; the call's declared
// one for a native call) and in the jail of the host serving the call, as a process tree
// that ends with it (on timeout: exit code 124), with no standard input. A non-zero exit or a timeout is
// CHECK_FAILED, returned with the data; a program that cannot start is exit code 127.
// The caller must not hold the workspace's journal: the command may itself be a writer
// of this worktree.
func WUSandbox(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in WUSandboxInput) (WUSandboxData, Notes, error) {
	var notes Notes
	w, err := delivery.ReadWU(ws, in.ID)
	if err != nil {
		return WUSandboxData{}, notes, err
	}
	dir, err := sandboxDir(ws, w, in.Dir, in.Worktree)
	if err != nil {
		return WUSandboxData{}, notes, err
	}
	lookup, environ := gitrepo.CallEnv(ctx)
	rctx, cancel := context.WithTimeout(ctx, in.Timeout)
	defer cancel()
	cmd := exec.CommandContext(rctx, in.Command[0], in.Command[1:]...)
	cmd.Dir = dir
	cmd.Env = append(environ, "DELIVERY_WU_ID="+w.ID)
	// Served by cmdbridge, the command runs in the host's jail, where its state
	// directory and keys are hidden and .git is read-only.
	jail, err := proctree.JailFrom(rctx, lookup)
	if err == nil {
		err = jail.Confine(cmd)
	}
	if err != nil {
		return WUSandboxData{}, notes, delivery.Errorf(tool.CodeSandboxUnavailable, "wu:sandbox: %v", err)
	}
	// The command runs as a process tree: on timeout its whole tree dies, daemons that
	// left the process group included, and nothing it started outlives the call.
	tree := proctree.Attach(cmd)
	var stdout, stderr cappedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if in.Stdout != nil && in.Stderr != nil {
		cmd.Stdout, cmd.Stderr = in.Stdout, in.Stderr
	}
	data := WUSandboxData{ID: w.ID, Dir: relDir(ws, dir), Command: in.Command}
	runErr := cmd.Run()
	tree.Kill()
	var exitErr *exec.ExitError
	switch {
	case rctx.Err() == context.DeadlineExceeded && ctx.Err() == nil:
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
		return data, notes, delivery.Errorf(tool.CodeCheckFailed, "command timed out after %s", in.TimeoutText)
	case data.ExitCode != 0:
		return data, notes, delivery.Errorf(tool.CodeCheckFailed, "command exited with code %d", data.ExitCode)
	}
	return data, notes, nil
}

// sandboxDir is worktree (confined to the workspace, relative to dir), else the WU's
// existing worktree, else the checkout the workspace was opened from.
func sandboxDir(ws *delivery.Workspace, w *delivery.WU, dir, worktree string) (string, error) {
	if worktree != "" {
		abs, rel, err := delivery.Confine(ws.Root, dir, worktree, false)
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

// relDir is abs relative to the workspace root (slash-separated), or abs itself outside it.
func relDir(ws *delivery.Workspace, abs string) string {
	rel, err := filepath.Rel(ws.Root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(rel)
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
