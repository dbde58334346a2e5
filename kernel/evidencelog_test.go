package kernel_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// A tool that replaces the evidence log by rename (as metrics:snapshot --output once
// did) must not leave the kernel appending to a file nobody can read: the next call is
// refused, and nothing runs unrecorded.
func TestCallsAreRefusedOnceTheEvidenceLogIsReplaced(t *testing.T) {
	k, ws := newKernel(t, &probe{})
	res := k.Call(context.Background(), req("test:echo", `{"text":"before"}`))
	require.True(t, res.Output.Success, "%+v", res.Output.Error)

	dir := filepath.Join(ws, ".cmdbridge", "evidence")
	tmp := filepath.Join(dir, "replacement")
	require.NoError(t, os.WriteFile(tmp, nil, 0o644))
	require.NoError(t, os.Rename(tmp, filepath.Join(dir, "receipts.jsonl")))

	res = k.Call(context.Background(), req("test:echo", `{"text":"after"}`))
	require.False(t, res.Output.Success)
	assert.Equal(t, tool.CodeExecutionFailed, res.Output.Error.Code)
	assert.Contains(t, res.Output.Error.Message, "replaced under the running log")
}

// setIn is the input of the fixture's test:set.
type setIn struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// setTool is test:set, a writer that commits: it writes key=value into settings.txt of
// the workspace and commits it with git, "set key=value" its message (as a
// configuration writer of a real program does).
func setTool() native.Tool {
	return native.New(tool.Spec{Name: "test:set", Description: "set a key and commit it"},
		func(ctx context.Context, env *tool.Env, in setIn) tool.Output {
			if err := os.WriteFile(filepath.Join(env.Dir, "settings.txt"), []byte(in.Key+"="+in.Value+"\n"), 0o644); err != nil {
				return tool.Fail(tool.CodeExecutionFailed, "%v", err)
			}
			for _, args := range [][]string{{"add", "settings.txt"},
				{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "set " + in.Key + "=" + in.Value}} {
				cmd := exec.CommandContext(ctx, "git", args...)
				cmd.Dir = env.Dir
				cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
				if out, err := cmd.CombinedOutput(); err != nil {
					return tool.Fail(tool.CodeExecutionFailed, "git %v: %v: %s", args, err, out)
				}
			}
			return tool.OK(in)
		})
}

// setKernel is a kernel over a git repository serving test:set, allowed by policy, and
// a read-only test:noop; before, when set, runs inside the call just before test:set
// does (a tamperer racing the call). It returns the kernel, the workspace and the
// evidence directory.
func setKernel(t *testing.T, before func()) (*kernel.Kernel, string, string) {
	t.Helper()
	ws, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	require.NoError(t, os.WriteFile(filepath.Join(ws, "settings.txt"), nil, 0o644))
	git(t, ws, "init", "-q", "-b", "main")
	git(t, ws, "add", "settings.txt")
	git(t, ws, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init")

	set := setTool()
	reg := native.NewRegistry()
	require.NoError(t, reg.Add(native.Raw(set.Spec, func(ctx context.Context, e *tool.Env, in json.RawMessage) tool.Output {
		if before != nil {
			before()
		}
		return set.Call(ctx, e, in)
	})))
	require.NoError(t, reg.Add(native.New(tool.Spec{Name: "test:noop", Description: "nothing", Annotations: tool.Annotations{ReadOnlyHint: true}},
		func(ctx context.Context, env *tool.Env, in struct{}) tool.Output { return tool.OK(nil) })))
	dir := filepath.Join(t.TempDir(), "evidence")
	k, err := assemble.Kernel(assemble.Config{
		Config: kernel.Config{
			Workspace: ws,
			Pack:      testPack,
			Policy:    []kernel.Rule{{Name: "allow-all", Tool: "*", Decision: kernel.Allow}},
			Evidence:  kernel.EvidenceConfig{Dir: dir, CheckpointEvery: 1},
		},
		Native: reg,
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })
	return k, ws, dir
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return strings.TrimSpace(string(out))
}

func setReq(value string) kernel.Request {
	return req("test:set", `{"key":"control_plane.limit","value":"`+value+`"}`)
}

// Issue #20 item 3: a receipts.jsonl truncated in place let one config:set commit
// with no receipt. A log cut or extended by anyone but its writers is now seen before
// the next call runs: the call (test:set, a writer that commits as config:set does) is
// refused and commits nothing.
func TestRedTeamConfigSetAfterTamperingCommitsNothing(t *testing.T) {
	cases := map[string]func(t *testing.T, dir string){
		"truncated in place": func(t *testing.T, dir string) {
			require.NoError(t, os.Truncate(filepath.Join(dir, evidence.ReceiptsFile), 0))
		},
		"forged line appended": func(t *testing.T, dir string) {
			f, err := os.OpenFile(filepath.Join(dir, evidence.ReceiptsFile), os.O_WRONLY|os.O_APPEND, 0)
			require.NoError(t, err)
			_, err = f.WriteString(`{"seq":2,"id":"call-forged","tool":"test:set","status":"ok","prev_hash":"","hash":"00"}` + "\n")
			require.NoError(t, err)
			require.NoError(t, f.Close())
		},
	}
	for name, tamper := range cases {
		t.Run(name, func(t *testing.T) {
			k, ws, dir := setKernel(t, nil)
			res := k.Call(context.Background(), setReq("1"))
			require.True(t, res.Output.Success, "%+v", res.Output.Error)
			head := git(t, ws, "rev-parse", "HEAD")

			tamper(t, dir)
			res = k.Call(context.Background(), setReq("2"))
			require.False(t, res.Output.Success)
			assert.Equal(t, tool.CodeExecutionFailed, res.Output.Error.Code)
			assert.Contains(t, res.Output.Error.Message, "refusing to run unrecorded")
			assert.Equal(t, head, git(t, ws, "rev-parse", "HEAD"), "test:set committed off the record")
		})
	}
}

// The log truncated while a committing writer (test:set, as config:set) runs (after the
// call was admitted, before its receipt): the commit stands and so does its receipt,
// written after what is left under a signed head that covers what was cut; the next
// call is refused. It holds whether the writer's own receipt finds the cut or a call
// made meanwhile found it first (and was refused).
func TestRedTeamConfigSetCommittedDuringTruncationKeepsItsReceipt(t *testing.T) {
	for _, foundFirst := range []bool{false, true} {
		t.Run(fmt.Sprintf("found first by another call: %v", foundFirst), func(t *testing.T) {
			var (
				k     *kernel.Kernel
				dir   string
				armed bool
				other kernel.Result
			)
			k, ws, dir := setKernel(t, func() {
				if !armed {
					return
				}
				_ = os.Truncate(filepath.Join(dir, evidence.ReceiptsFile), 0)
				if foundFirst {
					other = k.Call(context.Background(), req("test:noop", `{}`))
				}
			})
			res := k.Call(context.Background(), setReq("1"))
			require.True(t, res.Output.Success, "%+v", res.Output.Error)

			armed = true
			res = k.Call(context.Background(), setReq("2"))
			require.True(t, res.Output.Success, "%+v", res.Output.Error)
			if foundFirst {
				require.False(t, other.Output.Success, "the call made after the cut ran")
				assert.Equal(t, tool.CodeExecutionFailed, other.Output.Error.Code)
			}
			assert.Nil(t, res.Output.Metadata["evidence_error"])
			assert.Contains(t, git(t, ws, "log", "-1", "--format=%s"), "control_plane.limit=2")
			data, err := os.ReadFile(filepath.Join(dir, evidence.ReceiptsFile))
			require.NoError(t, err)
			assert.Contains(t, string(data), `"id":"`+res.Receipt.ID+`"`, "the committed call's receipt is lost")

			res = k.Call(context.Background(), setReq("3"))
			require.False(t, res.Output.Success)
			assert.Equal(t, tool.CodeExecutionFailed, res.Output.Error.Code)
			rep, err := evidence.Verify(dir)
			require.NoError(t, err)
			assert.False(t, rep.OK(), "the cut went unseen")
		})
	}
}
