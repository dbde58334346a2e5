package integration_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/commandstest"
	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/kerneltest"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/proctree/proctreetest"
	"github.com/cmdbridge/cmdbridge/surface/http/token"
	"github.com/cmdbridge/cmdbridge/tool"
)

// requireBwrap skips, naming the missing host capability, without bubblewrap.
func requireBwrap(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("host capability missing: bubblewrap (bwrap) on PATH")
	}
}

// gateWorkspace is a repository whose workspace.yaml configures the gates.
func gateWorkspace(t *testing.T, gates map[string]string) string {
	t.Helper()
	ws := kerneltest.GitRepo(t)
	writeGates(t, ws, gates)
	return ws
}

// writeGates writes a workspace.yaml configuring the gates, by name.
func writeGates(t *testing.T, ws string, gates map[string]string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("id: acme\nsoftware_delivery:\n  gates:\n    commands:\n")
	for _, name := range sortedKeys(gates) {
		fmt.Fprintf(&b, "      - name: %s\n        run: %s\n", name, strconv.Quote(gates[name]))
	}
	require.NoError(t, os.WriteFile(filepath.Join(ws, "workspace.yaml"), []byte(b.String()), 0o644))
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// keyThief is a gate that tries every spelling it can think of to read the token key
// and the evidence signing key, printing what it reads to stdout and stderr and copying
// it into files of the workspace.
func keyThief(state string, server int) string {
	tk, sk := state+"/token.key", state+"/evidence/signing.key"
	rel := ".git/cmdbridge"
	lines := []string{
		"cat " + tk + " " + sk,
		"base64 -w0 " + tk + "; base64 -w0 " + sk,
		"od -An -tx1 " + tk,
		"cat " + rel + "/token.key " + rel + "/evidence/signing.key",
		"base64 -w0 " + rel + "/token.key >&2",
		"cp " + tk + " leak-token; cp " + sk + " leak-signing",
		fmt.Sprintf("cat /proc/%d/root%s /proc/%d/root%s", server, tk, server, sk),
		fmt.Sprintf("for f in /proc/%d/fd/*; do timeout 0.2 cat $f; done", server),
		fmt.Sprintf("cat /proc/%d/cwd/%s/token.key /proc/%d/environ", server, rel, server),
		// Every process it can see (bounded: unconfined, that is the whole host).
		"timeout 10 sh -c 'for p in /proc/[0-9]*; do cat $p/root" + tk + " $p/root" + sk + "; for f in $p/fd/*; do timeout 0.2 cat $f; done; done'",
		"cat /proc/self/root" + tk + " /proc/self/cwd/" + rel + "/token.key /proc/self/../1/root" + tk,
		"ln -s " + tk + " link-token; cat link-token; ln -s " + state + " link-state; cat link-state/evidence/signing.key",
		"ln " + tk + " hard-token; cat hard-token",
		"umount " + state + "; cat " + tk,
		"unshare -m cat " + tk,
		"mkdir -p .git/hooks && echo 'cat " + tk + "' > .git/hooks/post-commit",
		"git config core.hooksPath /tmp",
		"mkdir -p .cmdbridge; echo 'policy: []' > .cmdbridge/config.yaml",
		"ls -la " + state + " " + rel,
		"echo GATE-RAN; cat a.txt", // last: the output's excerpt is its tail
	}
	return strings.Join(lines, " 2>&1; ")
}

// leaks reports where one of the secrets appears (raw, base64 or hex) in data.
func leaks(data []byte, secrets [][]byte) []string {
	var out []string
	for _, s := range secrets {
		s = bytes.TrimSpace(s)
		for _, form := range [][]byte{s, []byte(base64.StdEncoding.EncodeToString(s)), []byte(hex.EncodeToString(s)), []byte(spacedHex(s))} {
			if len(form) > 0 && bytes.Contains(data, form) {
				out = append(out, string(form[:min(12, len(form))]))
			}
		}
	}
	return out
}

// spacedHex is od -tx1's rendering of the first 16 bytes.
func spacedHex(s []byte) string {
	var b strings.Builder
	for _, c := range s[:min(16, len(s))] {
		fmt.Fprintf(&b, " %02x", c)
	}
	return b.String()
}

// TestRedTeamGateCannotReadKeys: a gate (workspace code a caller who may write
// workspace.yaml controls) tries every spelling to read the token key and the
// evidence signing key — by path, relative, through /proc of the server and of itself,
// through the server's open descriptors, through a symlink or hard link it makes, by
// unmounting — and gets nothing, on the adapter lane (in-process host), on the
// subprocess lane and on the native lane (the gate runner in the host's process). The key bytes appear nowhere: not in the call's output, not in the
// receipts, not in any file of the workspace. It also cannot plant a hook in .git.
func TestRedTeamGateCannotReadKeys(t *testing.T) {
	requireBwrap(t)
	ws := kerneltest.GitRepo(t)
	cfg := corpusConfig(ws)
	cfg.Policy, cfg.Legacy = allowAll, adapter.Config{Binary: commandstest.Exe(t)}
	k, err := assemble.Kernel(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })
	state := k.State().Root
	tokenKey, err := token.LoadKey(state)
	require.NoError(t, err)
	signingKey, err := os.ReadFile(filepath.Join(state, "evidence", evidence.SigningKeyFile))
	require.NoError(t, err, "the kernel made its signing key")
	secrets := [][]byte{tokenKey, signingKey}
	// A host that kept its key files open would expose them through /proc/<pid>/fd.
	for _, p := range []string{token.KeyPath(state), filepath.Join(state, "evidence", evidence.SigningKeyFile)} {
		f, err := os.Open(p)
		require.NoError(t, err)
		t.Cleanup(func() { _ = f.Close() })
	}
	writeGates(t, ws, map[string]string{"thief": keyThief(state, os.Getpid())})

	for _, lane := range []string{kernel.LaneAdapter, kernel.LaneSubprocess, kernel.LaneNative} {
		t.Run(lane, func(t *testing.T) {
			res := k.Call(context.Background(), kernel.Request{Tool: "gates", Input: json.RawMessage(`{}`),
				Caller: kernel.WorkspaceCaller("attacker"), Lane: lane})
			out, err := json.Marshal(res.Output)
			require.NoError(t, err)
			require.Contains(t, string(out), "GATE-RAN", "the gate ran: %s", out)
			require.Contains(t, string(out), `a\n`, "the gate reads the workspace: %s", out)
			assert.Empty(t, leaks(out, secrets), "the call's output holds a key: %s", out)
			t.Logf("%s", out)
		})
	}
	require.NoError(t, k.Close())
	receipts, err := os.ReadFile(filepath.Join(state, "evidence", "receipts.jsonl"))
	require.NoError(t, err)
	assert.Empty(t, leaks(receipts, secrets), "a receipt holds a key")
	require.NoError(t, filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || strings.HasPrefix(p, state) {
			return err // a link holds a path, not the bytes (and no tool path may follow it there)
		}
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		assert.Empty(t, leaks(b, secrets), "%s holds a key", p)
		return nil
	}))
	_, err = os.Stat(filepath.Join(ws, ".git", "hooks", "post-commit"))
	assert.ErrorIs(t, err, os.ErrNotExist, "the gate planted a hook the host's git would run")
	cfgBytes, err := os.ReadFile(filepath.Join(ws, ".git", "config"))
	require.NoError(t, err)
	assert.NotContains(t, string(cfgBytes), "hooksPath", "the gate changed the repository's configuration")
	_, err = os.Stat(filepath.Join(ws, kernel.ConfigFile))
	assert.ErrorIs(t, err, os.ErrNotExist, "the gate wrote the workspace's policy")
}

// TestGatesWithoutBwrapAreRefused: where bubblewrap is missing a gate does not run
// unconfined; the call fails with SANDBOX_UNAVAILABLE, saying what to install or set,
// unless the operator consented (UnconfinedWorkspaceCode).
func TestGatesWithoutBwrapAreRefused(t *testing.T) {
	ws := gateWorkspace(t, map[string]string{"proof": "echo ran > ran.txt"})
	bin := t.TempDir()
	git, err := exec.LookPath("git")
	require.NoError(t, err)
	require.NoError(t, os.Symlink(git, filepath.Join(bin, "git")))
	t.Setenv("PATH", bin) // git, and no bwrap
	for _, consent := range []bool{false, true} {
		t.Run(fmt.Sprintf("consent=%v", consent), func(t *testing.T) {
			cfg := corpusConfig(ws)
			cfg.Policy, cfg.UnconfinedWorkspaceCode = allowAll, consent
			k, err := assemble.Kernel(cfg)
			require.NoError(t, err)
			t.Cleanup(func() { _ = k.Close() })
			res := k.Call(context.Background(), kernel.Request{Tool: "gates", Input: json.RawMessage(`{}`), Caller: kernel.WorkspaceCaller("w")})
			_, statErr := os.Stat(filepath.Join(ws, "ran.txt"))
			if consent {
				assert.True(t, res.Output.Success, "%+v", res.Output.Error)
				assert.NoError(t, statErr, "with consent the gate runs unconfined")
				return
			}
			require.False(t, res.Output.Success)
			require.NotNil(t, res.Output.Error)
			assert.Equal(t, tool.CodeSandboxUnavailable, res.Output.Error.Code)
			assert.Contains(t, res.Output.Error.Message, "install bubblewrap")
			assert.Contains(t, res.Output.Error.Message, "unconfined_workspace_code: true")
			assert.ErrorIs(t, statErr, os.ErrNotExist, "no gate ran")
		})
	}
}

// TestRedTeamDefaultPolicyAsksBeforeWorkspaceCode replays the attack of issue #20: a
// caller that may write the workspace (write scope ".") under a policy allowing
// file:write (the snippet an APPROVAL_REQUIRED refusal offers) rewrites the gates of
// workspace.yaml, then calls gates. The default rules ask before any call that runs
// workspace code, so the non-interactive call is APPROVAL_REQUIRED, with the usual
// how-to-allow details, and nothing runs; the receipt records the effect runs_code.
func TestRedTeamDefaultPolicyAsksBeforeWorkspaceCode(t *testing.T) {
	ws := gateWorkspace(t, map[string]string{"vet": "true"})
	policy := append([]kernel.Rule{{Name: "allow-file-write", Tool: "file:write", Decision: kernel.Allow, Priority: -999}},
		kernel.DefaultPolicy()...)
	cfg := corpusConfig(ws)
	cfg.Policy = policy
	k, err := assemble.Kernel(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })
	attacker := kernel.Caller{Subject: "attacker", Write: []string{"."}}
	call := func(name, input string) kernel.Result {
		return k.Call(context.Background(), kernel.Request{Tool: name, Input: json.RawMessage(input), Caller: attacker})
	}

	yaml := "id: acme\nsoftware_delivery:\n  gates:\n    commands:\n      - name: pwn\n        run: echo pwned > pwned.txt\n"
	in, err := json.Marshal(map[string]any{"path": "workspace.yaml", "content": yaml})
	require.NoError(t, err)
	w := call("file:write", string(in))
	require.True(t, w.Output.Success, "the caller may write the configuration: %+v", w.Output.Error)

	for _, c := range []struct{ tool, input string }{
		{"gates", `{}`},
		{"wu:prep", `{"id":"WU-1"}`},
		{"wu:done", `{"id":"WU-1"}`},
		{"wu:sandbox", `{"id":"WU-1","command":["sh","-c","echo pwned > pwned.txt"]}`},
	} {
		t.Run(c.tool, func(t *testing.T) {
			res := call(c.tool, c.input)
			require.NotNil(t, res.Output.Error, "%s ran: %+v", c.tool, res.Output)
			assert.Equal(t, tool.CodeApprovalRequired, res.Output.Error.Code, res.Output.Error.Message)
			details, _ := res.Output.Error.Details.(map[string]any)
			assert.Equal(t, "runs_code", details["effect"])
			assert.Equal(t, "default-runs-code-ask", details["rule"])
			assert.Contains(t, details["config"], "allow-"+strings.NewReplacer(":", "-").Replace(c.tool), "how to allow it")
			_, err := os.Stat(filepath.Join(ws, "pwned.txt"))
			assert.ErrorIs(t, err, os.ErrNotExist, "workspace code ran")
		})
	}
	// Skipping the gates runs no workspace code: the policy does not ask for that.
	skip := call("wu:done", `{"id":"WU-1","skip_gates":true,"reason":"r","fix_wu":"WU-2"}`)
	if skip.Output.Error != nil {
		assert.NotEqual(t, tool.CodeApprovalRequired, skip.Output.Error.Code, skip.Output.Error.Message)
	}

	require.NoError(t, k.Close())
	receipts, err := os.ReadFile(filepath.Join(k.State().Root, "evidence", "receipts.jsonl"))
	require.NoError(t, err)
	assert.Contains(t, string(receipts), `"tool":"gates"`)
	for _, line := range strings.Split(strings.TrimSpace(string(receipts)), "\n") {
		if strings.Contains(line, `"tool":"gates"`) {
			assert.Contains(t, line, `"effect":"runs_code"`)
		}
	}
}

// TestWorkspaceCodeIsAnnotated: the tools that run workspace code say so in their
// annotations (and so in GET /tools, the manifest and MCP's _meta), and imply
// openWorldHint; no other tool of the corpus does.
func TestWorkspaceCodeIsAnnotated(t *testing.T) {
	k, err := assemble.Kernel(assemble.Config{
		Config: kernel.Config{
			Workspace: t.TempDir(),
			Evidence:  kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
		},
		Commands: commands.Default,
		Native:   nativetools.Default,
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })
	var runs []string
	for _, spec := range k.Tools() {
		if spec.Annotations.RunsCodeHint {
			runs = append(runs, spec.Name)
			assert.True(t, spec.Annotations.OpenWorldHint, spec.Name)
			assert.False(t, spec.Annotations.ReadOnlyHint, spec.Name)
		}
	}
	assert.Equal(t, []string{"gates", "wu:done", "wu:prep", "wu:sandbox"}, runs)
}

// TestRedTeamTimedOutGateLeavesNoDaemon: a gate starts a daemon that leaves its process
// group (setsid), clears its environment (env -i) and is double-forked, then blocks; the
// call is cancelled (the same end as a timeout: the call's context is done, whichever
// ends it; cancelling waits for the daemon rather than for a clock). Once the call has
// ended no process of it is left, on the adapter and native lanes
// (the gate is a child of the host) and on the subprocess lane (a grandchild). Two
// mechanisms each suffice here: the jail's pid namespace, and the tree's cgroup.
func TestRedTeamTimedOutGateLeavesNoDaemon(t *testing.T) {
	requireBwrap(t)
	proctreetest.RequireCgroup2(t)
	ws := kerneltest.GitRepo(t)
	cfg := corpusConfig(ws)
	cfg.Policy, cfg.Legacy = allowAll, adapter.Config{Binary: commandstest.Exe(t)}
	k, err := assemble.Kernel(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })
	for _, lane := range []string{kernel.LaneAdapter, kernel.LaneSubprocess, kernel.LaneNative} {
		t.Run(lane, func(t *testing.T) {
			marker := "cmdbridge-gate-daemon-" + lane + "-" + strconv.Itoa(os.Getpid())
			writeGates(t, ws, map[string]string{"daemon": proctreetest.EnvClearedDaemon(marker) + "; sleep 300"})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan kernel.Result, 1)
			go func() {
				done <- k.Call(ctx, kernel.Request{Tool: "gates", Input: json.RawMessage(`{}`),
					Caller: kernel.WorkspaceCaller("w"), Lane: lane, Timeout: 15 * time.Minute})
			}()
			proctreetest.WaitForMarker(t, marker) // the daemon is up; now the call ends
			cancel()
			res := <-done
			require.NotNil(t, res.Output.Error)
			assert.Contains(t, []string{tool.CodeCancelled, tool.CodeTimeout}, res.Output.Error.Code)
			require.Eventually(t, func() bool { return len(proctreetest.WithMarker(marker)) == 0 }, 30*time.Second, 20*time.Millisecond,
				"a process of the call outlived it: %v", proctreetest.WithMarker(marker))
		})
	}
}

// TestRedTeamMigratedPathInputsStayInScope: the path inputs of the tools migrated last
// (workspace:init's output, wu:sandbox's worktree) now reach native code; a caller with
// write scope on docs/ only, under a policy that allows everything, cannot point them at
// the repository's .git, cmdbridge's state, the workspace's configuration, or outside its
// scope: every call is SCOPE_DENIED and nothing is created.
func TestRedTeamMigratedPathInputsStayInScope(t *testing.T) {
	ws := kerneltest.GitRepo(t)
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "docs"), 0o755))
	cfg := corpusConfig(ws)
	cfg.Policy, cfg.UnconfinedWorkspaceCode = allowAll, true
	k, err := assemble.Kernel(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })
	state, err := filepath.Rel(ws, k.State().Root)
	require.NoError(t, err)
	outside := t.TempDir()
	caller := kernel.Caller{Subject: "docs-bot", Read: []string{"."}, Write: []string{"docs"}}
	for _, c := range []struct{ tool, input string }{
		{"workspace:init", `{"output":".git/hooks"}`},
		{"workspace:init", `{"output":` + quote(state) + `}`},
		{"workspace:init", `{"output":".cmdbridge"}`},
		{"workspace:init", `{"output":"src"}`},
		{"workspace:init", `{"output":` + quote(outside) + `}`},
		{"workspace:init", `{"output":"docs/../.."}`},
		{"wu:sandbox", `{"id":"WU-1","worktree":".git","command":["sh","-c","echo x > pwned"]}`},
		{"wu:sandbox", `{"id":"WU-1","worktree":` + quote(outside) + `,"command":["sh","-c","echo x > pwned"]}`},
	} {
		t.Run(c.tool+c.input, func(t *testing.T) {
			res := k.Call(context.Background(), kernel.Request{Tool: c.tool, Input: json.RawMessage(c.input), Caller: caller})
			require.NotNil(t, res.Output.Error, "%s ran: %+v", c.tool, res.Output)
			assert.Equal(t, tool.CodeScopeDenied, res.Output.Error.Code, res.Output.Error.Message)
		})
	}
	// Inside the caller's scope the same tool works: the refusals above are the scope's.
	ok := k.Call(context.Background(), kernel.Request{Tool: "workspace:init", Input: json.RawMessage(`{"output":"docs/ws"}`), Caller: caller})
	require.True(t, ok.Output.Success, "%+v", ok.Output.Error)
	assert.FileExists(t, filepath.Join(ws, "docs", "ws", "workspace.yaml"))
	for _, p := range []string{".git/hooks/workspace.yaml", filepath.Join(state, "workspace.yaml"), ".cmdbridge/workspace.yaml",
		"src/workspace.yaml", ".git/pwned"} {
		_, err := os.Stat(filepath.Join(ws, p))
		assert.ErrorIs(t, err, os.ErrNotExist, "%s was written", p)
	}
	entries, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Empty(t, entries, "a file outside the workspace was written")
}

// quote is s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
