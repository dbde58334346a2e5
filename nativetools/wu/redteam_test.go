package wu_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/commandstest"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/internal/failpoint"
	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/nativetools"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
)

// crashCase is one writer call the crash test kills at every step.
type crashCase struct {
	name  string
	tool  string
	input string
	// setup prepares the workspace the call runs on (committed).
	setup func(t *testing.T, ws string)
}

var crashCases = []crashCase{
	{name: "wu_create", tool: "wu:create", input: `{"lane":"Core: API","title":"Add health endpoint","exposure":"api",` +
		`"description":"Expose GET /healthz returning build info so the load balancer can probe.",` +
		`"acceptance":["GET /healthz returns 200"],"code_paths":["internal/api/health.go"]}`},
	{name: "wu_claim", tool: "wu:claim", input: `{"id":"WU-1","lane":"Core: API","branch_only":true}`,
		setup: func(t *testing.T, ws string) { create(t, ws) }},
	{name: "config_set", tool: "config:set", input: `{"key":"software_delivery.methodology.testing","value":"tdd"}`},
}

// nextInput is the writer that runs after the killed one: a wu:create of its own WU.
const nextInput = `{"lane":"Core: API","title":"Next writer","exposure":"api",` +
	`"description":"A later call whose commit must hold its own changes and nothing else.",` +
	`"acceptance":["it commits alone"],"code_paths":["internal/next.go"]}`

// TestRedTeamKillEveryStep runs a real writer (wu:create, wu:claim, config:set) as a
// child process on the legacy lane (the command's main) and on the native lane (the
// native tool), once to completion and then once per step it passes, killed with
// SIGKILL at that step (internal/failpoint). After each kill the workspace is recovered
// the way the next call finds it — a kernel opening it, the next native writer, or the
// next legacy writer as a process — and then it must be byte for byte as before the call
// or as after it (the commit exists), with git status clean (the lane locks are ignored,
// as workspace:init has git ignore them); the next writer's commit
// holds its own changes and nothing of the killed call's; state:doctor finds no issue.
func TestRedTeamKillEveryStep(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a writer process at every step")
	}
	for _, c := range crashCases {
		for _, lane := range []string{"legacy", "native"} {
			t.Run(c.name+"/"+lane, func(t *testing.T) { killEveryStep(t, c, lane) })
		}
	}
}

func killEveryStep(t *testing.T, c crashCase, lane string) {
	base := nt.Workspace(t)
	// As workspace:init leaves it: runtime files (the lane locks) are git's to ignore.
	nt.Write(t, base, ".gitignore", strings.Join(ops.RuntimeIgnores, "\n")+"\n")
	if c.setup != nil {
		c.setup(t, base)
	}
	clean(t, base)
	before := crashSnap(t, base)
	baseTree := readWS(t, base)

	// The call run to completion: the after-state, and the steps it passes.
	afterWS := copyWS(t, baseTree)
	trace := filepath.Join(t.TempDir(), "trace")
	require.NoError(t, child(t, afterWS, lane, c.tool, c.input, 0, trace), "the call succeeds when nothing kills it")
	after := crashSnap(t, afterWS)
	require.NotEqual(t, before.head, after.head, "the call commits")
	steps := readTrace(t, trace)
	require.Contains(t, steps, failpoint.Journal)
	require.Contains(t, steps, failpoint.AfterCommit)
	t.Logf("%s on the %s lane: %d steps: %s", c.tool, lane, len(steps), strings.Join(steps, " "))

	// The next writer on either state: what it must leave, and the files its commit holds.
	nextBefore, nextAfter := copyWS(t, baseTree), copyWS(t, readWS(t, afterWS))
	nt.Data(t, nt.Call(t, nextBefore, "wu:create", nextInput))
	nt.Data(t, nt.Call(t, nextAfter, "wu:create", nextInput))
	wantBefore, wantAfter := crashSnap(t, nextBefore), crashSnap(t, nextAfter)
	filesBefore, filesAfter := commitFiles(t, nextBefore), commitFiles(t, nextAfter)

	for n := 1; n <= len(steps); n++ {
		ws := copyWS(t, baseTree)
		err := child(t, ws, lane, c.tool, c.input, n, "")
		var ee *exec.ExitError
		require.True(t, errors.As(err, &ee), "step %d (%s): the child was killed: %v", n, steps[n-1], err)
		status := ee.Sys().(syscall.WaitStatus)
		require.True(t, status.Signaled() && status.Signal() == syscall.SIGKILL, "step %d (%s): killed by SIGKILL, got %v", n, steps[n-1], err)

		label := "step " + strconv.Itoa(n) + " (" + steps[n-1] + ")"
		switch n % 3 {
		case 0: // a kernel opens the workspace
			k, err := assemble.Kernel(assemble.Config{
				Config: kernel.Config{
					Workspace: ws,
					Evidence:  kernel.EvidenceConfig{Dir: t.TempDir()},
				},
				Commands: commands.Default,
				Native:   nativetools.Default,
			})
			require.NoError(t, err)
			require.NoError(t, k.Close())
			got := crashSnap(t, ws)
			assert.True(t, got.equal(before) || got.equal(after), "%s: recovered by a kernel, the workspace is as before or after the call:\n%s", label, got.diff(before, after))
			nt.Data(t, nt.Call(t, ws, "wu:create", nextInput))
		case 1: // the next native writer
			nt.Data(t, nt.Call(t, ws, "wu:create", nextInput))
		case 2: // the next legacy writer, a process
			require.NoError(t, child(t, ws, "legacy", "wu:create", nextInput, 0, ""), label)
		}
		got := crashSnap(t, ws)
		want, wantFiles := wantBefore, filesBefore
		if got.equal(wantAfter) {
			want, wantFiles = wantAfter, filesAfter
		}
		assert.True(t, got.equal(want), "%s: after the next writer, the workspace is as if the killed call never ran or completed:\n%s", label, got.diff(wantBefore, wantAfter))
		assert.Equal(t, wantFiles, commitFiles(t, ws), "%s: the next writer's commit holds its own changes only", label)
		assert.Empty(t, got.status, "%s: git status is clean", label)
		doctor := nt.Call(t, ws, "state:doctor", `{}`)
		assert.True(t, doctor.Success, "%s: state:doctor finds no issue: %+v %v", label, doctor.Error, doctor.Data)
	}
}

// crashState is what a kill must leave as before or after: every file outside .git
// (mode and content), git status, HEAD's tree and the number of commits (a committed
// call rolled back and redone by the next writer can leave the same tree, never the
// same history).
type crashState struct {
	files   map[string]string
	status  string
	head    string // HEAD^{tree}
	commits string
}

func crashSnap(t *testing.T, ws string) crashState {
	t.Helper()
	s := snap(t, ws)
	// One git process for both: the tree of every commit from HEAD back, newest first.
	trees := strings.Split(nt.Git(t, ws, "log", "--format=%T", "HEAD"), "\n")
	return crashState{files: s.files, status: s.status, head: trees[0], commits: strconv.Itoa(len(trees))}
}

func (s crashState) equal(o crashState) bool {
	if s.status != o.status || s.head != o.head || s.commits != o.commits || len(s.files) != len(o.files) {
		return false
	}
	for k, v := range s.files {
		if w, ok := o.files[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// diff names the files that differ from a and from b.
func (s crashState) diff(a, b crashState) string {
	var out []string
	for _, o := range []crashState{a, b} {
		for k, v := range s.files {
			if w, ok := o.files[k]; !ok || w != v {
				out = append(out, "  changed or new: "+k)
			}
		}
		for k := range o.files {
			if _, ok := s.files[k]; !ok {
				out = append(out, "  missing: "+k)
			}
		}
		out = append(out, "  status: "+strconv.Quote(s.status)+" vs "+strconv.Quote(o.status),
			"  commits: "+s.commits+" vs "+o.commits, "  --")
	}
	return strings.Join(out, "\n")
}

// clean commits whatever setup left, so "before" is a clean tree.
func clean(t *testing.T, ws string) {
	t.Helper()
	if nt.Git(t, ws, "status", "--porcelain", "--untracked-files=all") != "" {
		nt.Git(t, ws, "add", "-A")
		nt.Git(t, ws, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "setup")
	}
}

// readWS holds the workspace ws in memory, for copyWS.
func readWS(t *testing.T, ws string) *commandstest.Tree {
	t.Helper()
	tree, err := commandstest.ReadTree(ws)
	require.NoError(t, err)
	return tree
}

// copyWS writes a copy of a workspace read by readWS and returns its resolved root.
func copyWS(t *testing.T, from *commandstest.Tree) string {
	t.Helper()
	to, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	to = filepath.Join(to, "ws")
	require.NoError(t, from.Write(to))
	return to
}

// child runs the call as a process of the lane in ws: the delivery program running the
// command (legacy), or this test binary running the native tool (native). killAt > 0
// arms the failpoint that kills it at that step, trace (when set) records the steps it
// passes.
func child(t *testing.T, ws, lane, name, input string, killAt int, trace string) error {
	t.Helper()
	var cmd *exec.Cmd
	switch lane {
	case "legacy":
		c, ok := commands.Lookup(name)
		require.True(t, ok, "no command %s", name)
		argv, err := adapter.Argv(c, json.RawMessage(input))
		require.NoError(t, err, "%s %s", name, input)
		cmd = exec.CommandContext(context.Background(), commandstest.Exe(t), append([]string{name}, argv...)...)
		cmd.Env = os.Environ()
	case "native":
		cmd = exec.CommandContext(context.Background(), os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childVar+"="+lane, childTool+"="+name, childInput+"="+input)
	default:
		t.Fatalf("no lane %s", lane)
	}
	cmd.Dir = ws
	for k, v := range nt.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	if killAt > 0 {
		cmd.Env = append(cmd.Env, failpoint.KillVar+"="+strconv.Itoa(killAt))
	}
	if trace != "" {
		cmd.Env = append(cmd.Env, failpoint.TraceVar+"="+trace)
	}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	err := cmd.Run()
	if err != nil && killAt == 0 {
		t.Logf("%s %s: %s", lane, name, stderr.String())
	}
	return err
}

// readTrace returns the step names a traced child passed, in order.
func readTrace(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var steps []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		_, step, _ := strings.Cut(line, " ")
		steps = append(steps, step)
	}
	return steps
}

// commitFiles lists the files HEAD's commit changed.
func commitFiles(t *testing.T, ws string) string {
	t.Helper()
	return nt.Git(t, ws, "show", "--name-only", "--format=", "HEAD")
}
