package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/cmdbridge/cmdbridge/internal/tailbuf"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Defaults of [Config].
const (
	// DefaultMaxResult caps the result document read from the runner.
	DefaultMaxResult = 64 << 20
	// DefaultMaxCapture caps what is kept of the runner's stdout and stderr (the tail).
	DefaultMaxCapture = 64 << 10
	// tailInMetadata is how much of a captured stream a failure's metadata carries.
	tailInMetadata = 4 << 10
	// reapGrace bounds the wait for the result descriptor to close once bwrap is reaped.
	reapGrace = 2 * time.Second
)

// Config configures a [Runner].
type Config struct {
	// Bwrap is the bwrap executable ("" means "bwrap" on $PATH).
	Bwrap string
	// Runner is the argv of the tool runner, e.g. {"/usr/local/bin/cmdbridge",
	// "__sandbox-run"}. Runner[0] must be an absolute path; it is bound read-only at the
	// same path inside the sandbox.
	Runner []string
	// MaxResult caps the result document in bytes (default DefaultMaxResult).
	MaxResult int64
	// MaxCapture caps the kept tail of stdout and of stderr (default DefaultMaxCapture).
	MaxCapture int
}

// Runner runs calls in bwrap sandboxes on one host.
type Runner struct {
	opts   Config
	bwrap  string
	host   Host
	detail string
}

// Info describes how a call was sandboxed, for its receipt.
type Info struct {
	// ProfileHash is [Profile]'s hash ("" when no sandbox was built).
	ProfileHash string `json:"profile_hash"`
	// Host is the probe's classification.
	Host Host `json:"host"`
	// Degraded lists what the profile had to leave out ("no-proc").
	Degraded []string `json:"degraded,omitempty"`
	// Argv is the full bwrap command line.
	Argv []string `json:"argv,omitempty"`
}

// New probes the host (cached per bwrap path) and returns a runner. An unusable host is
// not an error: the runner then refuses every call with SANDBOX_UNAVAILABLE, and Host
// says why. Config that can never work (no runner, a relative runner path) are errors.
func New(opts Config) (*Runner, error) {
	if len(opts.Runner) == 0 {
		return nil, errors.New("sandbox: Config.Runner is empty")
	}
	if !filepath.IsAbs(opts.Runner[0]) {
		return nil, fmt.Errorf("sandbox: runner %q is not an absolute path", opts.Runner[0])
	}
	if _, err := os.Stat(opts.Runner[0]); err != nil {
		return nil, fmt.Errorf("sandbox: runner: %w", err)
	}
	if opts.Bwrap == "" {
		opts.Bwrap = "bwrap"
	}
	if opts.MaxResult <= 0 {
		opts.MaxResult = DefaultMaxResult
	}
	if opts.MaxCapture <= 0 {
		opts.MaxCapture = DefaultMaxCapture
	}
	r := &Runner{opts: opts}
	r.host, r.detail = Probe(context.Background(), opts.Bwrap)
	if r.host.Usable() {
		path, err := exec.LookPath(opts.Bwrap)
		if err != nil {
			return nil, fmt.Errorf("sandbox: bwrap: %w", err)
		}
		r.bwrap = path
	}
	return r, nil
}

// Host returns the probe's classification of this host.
func (r *Runner) Host() Host { return r.host }

// Detail returns the probe's explanation (the bwrap version, or why calls are refused).
func (r *Runner) Detail() string { return r.detail }

// Run runs req in a fresh sandbox under ctx's deadline and returns the tool's Output with
// sandbox facts in its metadata. It never runs the call unsandboxed: on an unusable host
// the Output is SANDBOX_UNAVAILABLE. On deadline the Output is TIMEOUT and on
// cancellation CANCELLED, after the sandbox's process tree has been killed and reaped.
func (r *Runner) Run(ctx context.Context, req Request) (tool.Output, Info) {
	info := Info{Host: r.host}
	if !r.host.Usable() {
		return tool.FailDetails(tool.CodeSandboxUnavailable, map[string]any{"host": r.host, "probe": r.detail},
			"%s needs the sandbox, which cannot run on this host (%s): %s", req.ToolName, r.host, r.detail), info
	}
	if err := checkRequest(req); err != nil {
		return tool.Fail(tool.CodeScopeDenied, "%s: sandbox: %v", req.ToolName, err), info
	}
	p := buildProfile(req, r.host == HostFull, hostLayout())
	info.ProfileHash, info.Degraded = p.hash, p.degraded
	argv := append(append([]string(nil), p.argv...), "--ro-bind", r.opts.Runner[0], r.opts.Runner[0], "--")
	argv = append(argv, r.opts.Runner...)
	info.Argv = append([]string{r.bwrap}, argv...)

	out := r.spawn(ctx, req, p, argv)
	meta := map[string]any{
		"sandbox_profile_hash": p.hash,
		"sandbox_host":         string(r.host),
	}
	if len(p.degraded) > 0 {
		meta["sandbox_degraded"] = p.degraded
	}
	for k, v := range meta {
		out = out.WithMeta(k, v)
	}
	return out.WithMeta("receipt_id", req.ReceiptID), info
}

// checkRequest refuses requests whose paths could not be mounted as meant.
func checkRequest(req Request) error {
	for _, s := range append(append([]string(nil), req.ScopeEnforced.Read...), req.ScopeEnforced.Write...) {
		if !filepath.IsAbs(s) {
			return fmt.Errorf("scope %q is not an absolute path", s)
		}
	}
	if req.Workspace == "" {
		return nil
	}
	if !filepath.IsAbs(req.Workspace) {
		return fmt.Errorf("workspace %q is not an absolute path", req.Workspace)
	}
	ws := filepath.Clean(req.Workspace)
	for _, s := range append(append([]string(nil), req.ScopeEnforced.Read...), req.ScopeEnforced.Write...) {
		if within(ws, filepath.Clean(s)) {
			return nil
		}
	}
	return fmt.Errorf("workspace %s is outside every scope", req.Workspace)
}

func (r *Runner) spawn(ctx context.Context, req Request, p profile, argv []string) tool.Output {
	fail := func(format string, args ...any) tool.Output {
		return tool.Fail(tool.CodeExecutionFailed, "%s: sandbox: "+format, append([]any{req.ToolName}, args...)...)
	}
	body, err := json.Marshal(req)
	if err != nil {
		return fail("encode request: %v", err)
	}
	resultR, resultW, err := os.Pipe()
	if err != nil {
		return fail("result pipe: %v", err)
	}
	defer resultR.Close()
	files := []*os.File{resultW}
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	for _, f := range p.files {
		// The generated files are tiny: they fit in the pipe buffer, so they are written
		// before bwrap starts and the write ends closed (bwrap reads to EOF).
		pr, pw, err := os.Pipe()
		if err != nil {
			closeAll()
			return fail("data pipe: %v", err)
		}
		_, werr := io.WriteString(pw, f.content)
		pw.Close()
		files = append(files, pr)
		if werr != nil {
			closeAll()
			return fail("data pipe: %v", werr)
		}
	}

	stdout := tailbuf.New(r.opts.MaxCapture)
	stderr := tailbuf.New(r.opts.MaxCapture)
	cmd := exec.CommandContext(ctx, r.bwrap, argv...)
	cmd.Env = []string{} // bwrap itself gets nothing of the host environment either
	cmd.Stdin = bytes.NewReader(body)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.ExtraFiles = files
	// Own process group, so the kill reaches bwrap and anything it forked outside the
	// sandbox's pid namespace; --die-with-parent and the pid namespace take the rest.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = reapGrace

	start := time.Now()
	if err := cmd.Start(); err != nil {
		closeAll()
		return fail("start bwrap: %v", err)
	}
	closeAll() // the child holds its copies; the result pipe reaches EOF when it ends

	type read struct {
		b   []byte
		err error
	}
	got := make(chan read, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(resultR, r.opts.MaxResult+1))
		got <- read{b, err}
	}()
	waitErr := cmd.Wait()
	var res read
	select {
	case res = <-got:
	case <-time.After(reapGrace):
		// Something still holds the write end after bwrap was reaped; stop reading.
		resultR.Close()
		res = <-got
	}
	dur := time.Since(start)
	exitCode := -1
	if cmd.ProcessState != nil {
		exitCode = cmd.ProcessState.ExitCode()
	}
	withTails := func(o tool.Output) tool.Output {
		o = o.WithMeta("sandbox_exit_code", exitCode).WithMeta("sandbox_duration_ms", dur.Milliseconds())
		if s := stderr.Tail(tailInMetadata); s != "" {
			o = o.WithMeta("stderr_tail", s)
		}
		if s := stdout.Tail(tailInMetadata); s != "" {
			o = o.WithMeta("stdout_tail", s)
		}
		return o
	}

	switch err := ctx.Err(); {
	case errors.Is(err, context.DeadlineExceeded):
		return withTails(tool.Fail(tool.CodeTimeout, "%s: sandboxed call exceeded its deadline; the sandbox was killed", req.ToolName))
	case err != nil:
		return withTails(tool.Fail(tool.CodeCancelled, "%s: sandboxed call cancelled; the sandbox was killed", req.ToolName))
	}
	if res.err != nil {
		return withTails(fail("read result: %v", res.err))
	}
	if int64(len(res.b)) > r.opts.MaxResult {
		return withTails(fail("result larger than %d bytes", r.opts.MaxResult))
	}
	if len(bytes.TrimSpace(res.b)) == 0 {
		return withTails(fail("the runner wrote no result (%v): %s", exitErr(waitErr), lastLine(stderr.Tail(tailInMetadata))))
	}
	var w wireResult
	if err := json.Unmarshal(res.b, &w); err != nil || w.Output == nil {
		if err == nil {
			err = errors.New(`no "output" member`)
		}
		return withTails(fail("garbled result (%v): %v: %s", exitErr(waitErr), err, lastLine(stderr.Tail(tailInMetadata))))
	}
	if id, _ := w.Output.Metadata["receipt_id"].(string); id != req.ReceiptID {
		return withTails(fail("result carries receipt id %q, want %q", id, req.ReceiptID))
	}
	out := tool.Output{Success: w.Output.Success, Error: w.Output.Error, Metadata: w.Output.Metadata}
	if len(w.Output.Data) > 0 && string(w.Output.Data) != "null" {
		out.Data = w.Output.Data
	}
	if out.Success == (out.Error != nil) {
		return withTails(fail("result is inconsistent (success=%v with error %v)", out.Success, out.Error))
	}
	if !out.Success {
		out = withTails(out)
	} else {
		out = out.WithMeta("sandbox_exit_code", exitCode).WithMeta("sandbox_duration_ms", dur.Milliseconds())
	}
	return out
}

func exitErr(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

func lastLine(s string) string {
	s = string(bytes.TrimRight([]byte(s), "\n"))
	if i := bytes.LastIndexByte([]byte(s), '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}
