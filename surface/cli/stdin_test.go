package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/internal/hostconfig"
	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/sandbox"
	"github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/surface/cli/clitest"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// The stdin fixture is fx:cat, a legacy command in the corpus's style that reads the
// file its --file flag names, "-" meaning standard input, and prints what it read in its
// envelope; and a native fx:cat doing the same through tool.Env.Stdin. The test binary
// is its subprocess-lane binary (catFixtureEnv set) and its sandbox runner (argv[1] ==
// catRunner: bwrap passes no environment).
// catCLI (argv[1]) makes it cmdbridge itself over the fixture, reading its own stdin.
const (
	catFixtureEnv = "CMDBRIDGE_TEST_STDIN_FIXTURE"
	catRunner     = "__stdin-fixture-runner"
	catCLI        = "__stdin-fixture-cmdbridge"
)

func init() {
	// init, not TestMain: these roles must run before TestMain picks its own. The argv
	// roles come first: their own children inherit catFixtureEnv.
	if len(os.Args) > 1 && (os.Args[1] == catRunner || os.Args[1] == catCLI) {
		os.Exit(cli.Main(append([]string{"cmdbridge"}, os.Args[2:]...), os.Stdout, os.Stderr, catHost()))
	}
	if os.Getenv(catFixtureEnv) == "1" {
		os.Exit(runCatCommand(context.Background(), os.Args[1:]))
	}
}

// runCatCommand is the subprocess lane's program, `binary fx:cat argv...`: the named
// command's main on os.Args set to its name and argv, as in a process of its own.
func runCatCommand(ctx context.Context, words []string) int {
	if len(words) == 0 {
		fmt.Fprintln(os.Stderr, "usage: fixture <command> [argv...]")
		return 2
	}
	c, ok := catCommands().Lookup(words[0])
	if !ok {
		fmt.Fprintf(os.Stderr, "unknown command %q\n", words[0])
		return 2
	}
	os.Args = words
	c.Main(ctx)
	return 0
}

func newCatApp() *ucli.App {
	return &ucli.App{
		Name:  "fx:cat",
		Usage: "Print a file's content; - reads standard input.",
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "file", Usage: "file to read, or - for standard input", Required: true},
			&ucli.BoolFlag{Name: "json", Usage: "print the JSON envelope"},
		},
		Metadata: map[string]interface{}{legacy.MetaReadOnly: true},
		Action: func(c *ucli.Context) error {
			var b []byte
			var err error
			if f := c.String("file"); f == "-" {
				b, err = io.ReadAll(os.Stdin)
			} else {
				b, err = os.ReadFile(f)
			}
			if err != nil {
				return ucli.Exit(err.Error(), 1)
			}
			env, _ := json.Marshal(map[string]any{"ok": true, "command": "fx:cat",
				"data": catData(b), "error": nil, "warnings": []string{}})
			fmt.Println(string(env))
			return nil
		},
	}
}

func catData(b []byte) map[string]any { return map[string]any{"text": string(b), "bytes": len(b)} }

func catCommands() *legacy.Registry {
	r := legacy.NewRegistry()
	// Analysed by hand (it only reads its stdin): in-process, so the adapter lane runs it
	// although a binary is configured.
	if err := r.Add(legacy.Command{Name: "fx:cat", Domain: "fx", New: newCatApp, Tier: legacy.TierInProcess,
		Main: func(ctx context.Context) { _ = newCatApp().RunContext(ctx, os.Args) }}); err != nil {
		panic(err)
	}
	return r
}

type catIn struct {
	File string `json:"file"`
}

func catNative() *native.Registry {
	r := native.NewRegistry()
	err := r.Add(native.New(tool.Spec{Name: "fx:cat", Description: "Print a file's content; - reads standard input.",
		Annotations: tool.Annotations{ReadOnlyHint: true}},
		func(ctx context.Context, env *tool.Env, in catIn) tool.Output {
			var b []byte
			var err error
			if in.File == "-" {
				b, err = io.ReadAll(env.Stdin)
			} else {
				b, err = os.ReadFile(filepath.Join(env.Dir, in.File))
			}
			if err != nil {
				return tool.Fail(tool.CodeExecutionFailed, "%v", err)
			}
			return tool.OK(catData(b))
		}))
	if err != nil {
		panic(err)
	}
	// fx:drop is destructive, so an interactive call asks first.
	err = r.Add(native.New(tool.Spec{Name: "fx:drop", Description: "Drop what standard input names.",
		Annotations: tool.Annotations{DestructiveHint: true}},
		func(ctx context.Context, env *tool.Env, in struct{}) tool.Output {
			b, err := io.ReadAll(env.Stdin)
			if err != nil {
				return tool.Fail(tool.CodeExecutionFailed, "%v", err)
			}
			return tool.OK(catData(b))
		}))
	if err != nil {
		panic(err)
	}
	return r
}

func catHost() cli.Host {
	return cli.Host{Config: hostconfig.Config{Commands: catCommands(), Native: catNative()}}
}

// catKernel serves the fixture on every lane: the subprocess lane runs this test binary,
// the sandbox lane (when the host can sandbox) runs it as the runner.
func catKernel(t *testing.T, maxStdin int) (*kernel.Kernel, string, bool) {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	t.Setenv(catFixtureEnv, "1") // inherited by the subprocess lane only: this process is past init
	quietRace(t)
	ws := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(ws, "a.txt"), []byte("from a file\n"), 0o644))
	sb, err := sandbox.New(sandbox.Config{Runner: []string{exe, catRunner, cli.SandboxRunCommand}})
	require.NoError(t, err)
	k, err := assemble.Kernel(assemble.Config{
		Config: kernel.Config{
			Workspace: ws,
			MaxStdin:  maxStdin,
			Evidence:  kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
		},
		Commands: catCommands(),
		Native:   catNative(),
		Legacy:   adapter.Config{Binary: exe},
		Sandbox:  sb,
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })
	return k, ws, sb.Host().Usable()
}

// quietRace spares the children the race detector's second of sleep at exit: they are
// the fixture, not the code under test.
func quietRace(t *testing.T) {
	if os.Getenv("GORACE") == "" {
		t.Setenv("GORACE", "atexit_sleep_ms=0")
	}
}

func dataJSON(t *testing.T, out tool.Output) string {
	t.Helper()
	b, err := json.Marshal(out.Data)
	require.NoError(t, err)
	return string(b)
}

// TestStdinSameOutputOnEveryLane: the same stdin read through "-" gives the same data on
// the adapter, subprocess, native and sandbox lanes.
func TestStdinSameOutputOnEveryLane(t *testing.T) {
	k, _, canSandbox := catKernel(t, 0)
	stdin := []byte("line one\nline two\n\ttabbed ünïcode\n")
	want, err := json.Marshal(catData(stdin))
	require.NoError(t, err)
	lanes := []string{kernel.LaneAdapter, kernel.LaneSubprocess, kernel.LaneNative}
	if canSandbox {
		lanes = append(lanes, kernel.LaneSandbox)
	} else {
		t.Log("the host cannot sandbox: the sandbox lane is left out")
	}
	for _, lane := range lanes {
		t.Run(lane, func(t *testing.T) {
			res := k.Call(context.Background(), kernel.Request{Tool: "fx:cat", Input: json.RawMessage(`{"file":"-"}`),
				Caller: kernel.WorkspaceCaller("tester"), Lane: lane, Stdin: stdin})
			require.True(t, res.Output.Success, "%+v %v", res.Output.Error, res.Output.Metadata)
			assert.JSONEq(t, string(want), dataJSON(t, res.Output))
			assert.Equal(t, lane, res.Receipt.Lane)
			assert.NotEmpty(t, res.Receipt.StdinHash)
		})
	}
	t.Run("no stdin reads empty", func(t *testing.T) {
		for _, lane := range lanes {
			res := k.Call(context.Background(), kernel.Request{Tool: "fx:cat", Input: json.RawMessage(`{"file":"-"}`),
				Caller: kernel.WorkspaceCaller("tester"), Lane: lane})
			require.True(t, res.Output.Success, "%s: %+v", lane, res.Output.Error)
			assert.JSONEq(t, `{"text":"","bytes":0}`, dataJSON(t, res.Output), lane)
		}
	})
}

// TestStdinUnreadDoesNotBlock: a command that never reads its stdin finishes with a
// stdin of the whole limit on every lane (nothing waits for a reader). The deadline only
// turns a hang into a failure.
func TestStdinUnreadDoesNotBlock(t *testing.T) {
	k, _, canSandbox := catKernel(t, 0)
	big := bytes.Repeat([]byte("0123456789abcdef"), kernel.DefaultMaxStdin/16)
	lanes := []string{kernel.LaneAdapter, kernel.LaneSubprocess, kernel.LaneNative}
	if canSandbox {
		lanes = append(lanes, kernel.LaneSandbox)
	}
	for _, lane := range lanes {
		for i := 0; i < 2; i++ { // twice: the adapter's reused stdin must not keep the first run's data
			res := k.Call(context.Background(), kernel.Request{Tool: "fx:cat", Input: json.RawMessage(`{"file":"a.txt"}`),
				Caller: kernel.WorkspaceCaller("tester"), Lane: lane, Stdin: big, Timeout: 30 * time.Second})
			require.True(t, res.Output.Success, "%s: %+v", lane, res.Output.Error)
			assert.JSONEq(t, `{"text":"from a file\n","bytes":12}`, dataJSON(t, res.Output), lane)
		}
		// A shorter stdin after a longer one is read whole and alone.
		res := k.Call(context.Background(), kernel.Request{Tool: "fx:cat", Input: json.RawMessage(`{"file":"-"}`),
			Caller: kernel.WorkspaceCaller("tester"), Lane: lane, Stdin: []byte("short")})
		require.True(t, res.Output.Success, "%s: %+v", lane, res.Output.Error)
		assert.JSONEq(t, `{"text":"short","bytes":5}`, dataJSON(t, res.Output), lane)
	}
}

// runCat runs cmdbridge over the fixture in ws as a process (this test binary) with
// stdin as its standard input.
func runCat(t *testing.T, ws string, stdin []byte, args ...string) (string, string, int) {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	t.Setenv(catFixtureEnv, "1") // for the subprocess lane
	quietRace(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, append([]string{catCLI, "--workspace", ws, "--bin", exe}, args...)...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return out.String(), errb.String(), code
}

func TestCallStdinFlag(t *testing.T) {
	k, ws, _ := catKernel(t, 0)
	require.NoError(t, k.Close())
	file := filepath.Join(t.TempDir(), "in.txt")
	require.NoError(t, os.WriteFile(file, []byte("from --stdin FILE\n"), 0o644))
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"dash adapter", "piped in\n", []string{"--stdin", "-", "--lane", "adapter"}, "piped in\n"},
		{"dash subprocess", "piped in\n", []string{"--stdin", "-", "--lane", "subprocess"}, "piped in\n"},
		{"dash native", "piped in\n", []string{"--stdin", "-", "--lane", "native"}, "piped in\n"},
		{"file", "not this\n", []string{"--stdin", file}, "from --stdin FILE\n"},
		{"none", "not this either\n", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"call", "fx:cat", "--input", `{"file":"-"}`}, tc.args...)
			stdout, stderr, code := runCat(t, ws, []byte(tc.stdin), args...)
			require.Equal(t, 0, code, stderr)
			out := clitest.DecodeOutput(t, stdout)
			require.True(t, out.Success, stdout)
			assert.Equal(t, tc.want, out.Data.(map[string]any)["text"])
		})
	}
	t.Run("both read stdin", func(t *testing.T) {
		_, stderr, code := runCat(t, ws, []byte("{}"), "call", "fx:cat", "--input-file", "-", "--stdin", "-")
		assert.Equal(t, 2, code)
		assert.Contains(t, stderr, "cannot both read")
	})
	t.Run("over the limit", func(t *testing.T) {
		big := bytes.Repeat([]byte("x"), kernel.DefaultMaxStdin+10)
		stdout, _, code := runCat(t, ws, big, "call", "fx:cat", "--input", `{"file":"-"}`, "--stdin", "-")
		assert.Equal(t, 1, code)
		out := clitest.DecodeOutput(t, stdout)
		require.NotNil(t, out.Error)
		assert.Equal(t, tool.CodeInvalidInput, out.Error.Code)
		assert.Contains(t, out.Error.Message, fmt.Sprintf("limit of %d bytes", kernel.DefaultMaxStdin))
	})
}

func TestBatchStdinField(t *testing.T) {
	k, ws, _ := catKernel(t, 0)
	require.NoError(t, k.Close())
	batch := filepath.Join(t.TempDir(), "batch.json")
	require.NoError(t, os.WriteFile(batch, []byte(`[
		{"tool":"fx:cat","input":{"file":"-"},"stdin":"first\n","lane":"adapter"},
		{"tool":"fx:cat","input":{"file":"-"},"lane":"subprocess"},
		{"tool":"fx:cat","input":{"file":"-"},"stdin":"third","lane":"native"}]`), 0o644))
	stdout, stderr, code := runCat(t, ws, nil, "batch", batch)
	require.Equal(t, 0, code, stderr)
	var outs []tool.Output
	require.NoError(t, json.Unmarshal([]byte(stdout), &outs), stdout)
	require.Len(t, outs, 3)
	for i, want := range []string{"first\n", "", "third"} {
		require.True(t, outs[i].Success, "%d: %s", i, stdout)
		assert.Equal(t, want, outs[i].Data.(map[string]any)["text"], i)
	}
}

// TestInteractiveApprovalShowsTheStdin: the terminal's approval question names the
// stdin the call carries (by hash), and the approved call gets it.
func TestInteractiveApprovalShowsTheStdin(t *testing.T) {
	k, ws, _ := catKernel(t, 0)
	require.NoError(t, k.Close())
	file := filepath.Join(t.TempDir(), "in.txt")
	require.NoError(t, os.WriteFile(file, []byte("a"), 0o644))
	stdout, stderr, code := runCat(t, ws, []byte("y\n"), "call", "fx:drop", "--interactive", "--stdin", file)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "approve fx:drop")
	assert.Contains(t, stderr, "stdin of SHA-256 ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb")
	out := clitest.DecodeOutput(t, stdout)
	require.True(t, out.Success, stdout)
	assert.Equal(t, "a", out.Data.(map[string]any)["text"])
}
