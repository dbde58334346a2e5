package adapter

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"sort"
	"syscall"
	"time"

	"github.com/cmdbridge/cmdbridge/proctree"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// RunSubprocess runs `opts.Binary [opts.Prefix...] <c.Name> argv...` (for a tree leaf,
// whose argv starts with its path, `opts.Binary [opts.Prefix...] argv...`) as a real process with the same
// stdin, environment, directory and output caps as [Run], as a process tree (package
// proctree: own process group, descendants marked), and maps its end to the same
// [Result]. On deadline or cancellation the whole tree is killed, daemons that left the
// group included, and the result is 124/timeout or 130/cancelled with the same stderr
// note the adapter lane appends. Nothing the command started outlives the call.
func RunSubprocess(ctx context.Context, c legacy.Command, argv []string, opts Config) Result {
	start := time.Now()
	if ctx == nil {
		ctx = context.Background()
	}
	res := Result{Command: c.Name, Output: c.Output, Args: argv, Lane: LaneSubprocess, Status: Completed}
	if opts.Binary == "" {
		res.ExitCode, res.Stdout = ExitUnavailable, []byte{}
		res.Stderr = []byte(fmt.Sprintf("[%s] subprocess: no binary configured (Config.Binary)\n", c.Name))
		return res
	}
	max := opts.maxOutput()
	stdout, stderr := &cappedBuffer{max: max}, &cappedBuffer{max: max}
	words := append([]string(nil), opts.Prefix...)
	if c.Program == "" {
		words = append(words, c.Name)
	}
	cmd := exec.CommandContext(ctx, opts.Binary, append(words, argv...)...)
	cmd.Dir = opts.Dir
	base := opts.Environ
	if base == nil {
		base = hostEnviron()
	}
	cmd.Env = mergeEnv(base, opts.Env)
	// Descriptor 0 is a memory file holding the stdin, as on the adapter lane: the child
	// reads it like a file, and one that never reads it cannot block on a full pipe
	// (nor can a descendant that inherits it).
	in, err := newStream("stdin")
	if err == nil {
		defer in.close()
		err = in.resetInput(opts.Stdin)
	}
	if err != nil {
		res.ExitCode, res.Stdout = ExitUnavailable, []byte{}
		res.Stderr = []byte(fmt.Sprintf("[%s] subprocess: stdin: %v\n", c.Name, err))
		return res
	}
	cmd.Stdin = in.f
	cmd.Stdout, cmd.Stderr = stdout, stderr
	tree := proctree.Attach(cmd)
	err = cmd.Run()
	tree.Kill()
	res.Duration = time.Since(start)
	res.Stdout, res.StdoutTruncated = stdout.bytes(), stdout.truncated
	res.Stderr, res.StderrTruncated = stderr.bytes(), stderr.truncated
	if ctx.Err() != nil {
		res.Status = statusFor(ctx)
		res.ExitCode = ExitTimeout
		if res.Status == Cancelled {
			res.ExitCode = ExitCancelled
		}
		res.Stderr = append(res.Stderr, statusNote(c.Name, res.Status, false)...)
		return res
	}
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr):
		res.ExitCode = exitErr.ExitCode()
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.ExitCode = 128 + int(ws.Signal())
		}
	default:
		res.ExitCode = ExitUnavailable
		res.Stderr = append(res.Stderr, fmt.Sprintf("[%s] subprocess: %v\n", c.Name, err)...)
	}
	return res
}

// mergeEnv returns base with the variables of set replacing or added, in a stable order.
func mergeEnv(base []string, set map[string]string) []string {
	if len(set) == 0 {
		return base
	}
	out := make([]string, 0, len(base)+len(set))
	for _, kv := range base {
		k, _, _ := cutEnv(kv)
		if _, replaced := set[k]; !replaced {
			out = append(out, kv)
		}
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, k+"="+set[k])
	}
	return out
}

func cutEnv(kv string) (string, string, bool) {
	for i := 1; i < len(kv); i++ { // from 1: Windows-style "=C:" names keep their '='
		if kv[i] == '=' {
			return kv[:i], kv[i+1:], true
		}
	}
	return kv, "", false
}

// cappedBuffer keeps the first max bytes written and drops (but accepts) the rest, so
// the writer is never blocked and never errors.
type cappedBuffer struct {
	buf       []byte
	max       int
	truncated bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	room := b.max - len(b.buf)
	if len(p) > room {
		b.buf = append(b.buf, p[:max(room, 0)]...)
		b.truncated = true
		return len(p), nil
	}
	b.buf = append(b.buf, p...)
	return len(p), nil
}

func (b *cappedBuffer) bytes() []byte {
	if b.buf == nil {
		return []byte{}
	}
	return b.buf
}
