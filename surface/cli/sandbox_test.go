package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/internal/hostconfig"
	"github.com/cmdbridge/cmdbridge/kernel/sandbox"
	"github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// sandboxHost has one native tool and one legacy command that both report the
// directory and the environment they were given.
func sandboxHost(t *testing.T) cli.Host {
	t.Helper()
	nreg := native.NewRegistry()
	type in struct {
		Word string `json:"word"`
	}
	require.NoError(t, nreg.Add(native.New(tool.Spec{Name: "t:native"},
		func(_ context.Context, env *tool.Env, in in) tool.Output {
			fmt.Println("stray print from a native tool") // must not reach the result
			return tool.OK(map[string]any{"dir": env.Dir, "seed": env.Getenv("SEED"), "word": in.Word,
				"interactive": env.Interactive, "id": env.IDs.Hex("x", 4)})
		})))
	cmds := legacy.NewRegistry()
	newApp := func() *ucli.App {
		return &ucli.App{Name: "t:legacy", Usage: "echo", Flags: []ucli.Flag{
			&ucli.BoolFlag{Name: "json"}, &ucli.StringFlag{Name: "word"},
		}, Action: func(c *ucli.Context) error {
			wd, _ := os.Getwd()
			b, _ := json.Marshal(map[string]any{"ok": true, "command": "t:legacy",
				"data": map[string]any{"dir": wd, "seed": os.Getenv("SEED"), "word": c.String("word")}, "error": nil, "warnings": []string{}})
			fmt.Println(string(b))
			return nil
		}}
	}
	require.NoError(t, cmds.Add(legacy.Command{Name: "t:legacy", Domain: "t", New: newApp,
		Main: func(ctx context.Context) { _ = newApp().RunContext(ctx, os.Args) }}))
	return cli.Host{Config: hostconfig.Config{Commands: cmds, Native: nreg}}
}

// runSandboxRunner runs `cmdbridge __sandbox-run` in-process with stdin holding stdin and
// returns the decoded result document, stdout and the exit status.
func runSandboxRunner(t *testing.T, host cli.Host, stdin string) (tool.Output, string, int) {
	t.Helper()
	inR, inW, err := os.Pipe()
	require.NoError(t, err)
	_, err = inW.WriteString(stdin)
	require.NoError(t, err)
	require.NoError(t, inW.Close())
	saved := os.Stdin
	os.Stdin = inR
	defer func() { os.Stdin = saved; inR.Close() }()

	resR, resW, err := os.Pipe()
	require.NoError(t, err)
	defer resR.Close()
	// The runner owns (and closes) a duplicate: resW's own descriptor is closed here, so
	// its finalizer can never close the number under the runner, or after its reuse.
	fd, err := syscall.Dup(int(resW.Fd()))
	require.NoError(t, err)
	require.NoError(t, resW.Close())
	var out, errb bytes.Buffer
	code := cli.Main([]string{"cmdbridge", cli.SandboxRunCommand, "--result-fd", strconv.Itoa(fd)}, &out, &errb, host)
	var buf bytes.Buffer
	_, err = buf.ReadFrom(resR) // EOF: the runner closed its result descriptor
	require.NoError(t, err)
	var doc struct {
		Output tool.Output `json:"output"`
	}
	require.NoError(t, json.Unmarshal(buf.Bytes(), &doc), "result %q, stderr %q", buf.String(), errb.String())
	return doc.Output, out.String(), code
}

func TestSandboxRunnerDispatchesBothLanes(t *testing.T) {
	ws := t.TempDir()
	host := sandboxHost(t)
	for _, entry := range []sandbox.Entry{
		{Lane: sandbox.LaneNative, Native: "t:native"},
		{Lane: sandbox.LaneAdapter, Command: "t:legacy"},
	} {
		t.Run(entry.Lane, func(t *testing.T) {
			req, err := json.Marshal(sandbox.Request{ToolName: "t:tool", HandlerEntry: entry, Input: json.RawMessage(`{"word":"hi"}`),
				ReceiptID: "rcpt-7", Workspace: ws, Env: map[string]string{"SEED": "42"}})
			require.NoError(t, err)
			out, stdout, code := runSandboxRunner(t, host, string(req))
			require.True(t, out.Success, "%+v", out.Error)
			assert.Equal(t, 0, code)
			assert.Equal(t, "rcpt-7", out.Metadata["receipt_id"])
			data := out.Data.(map[string]any)
			assert.Equal(t, ws, data["dir"])
			assert.Equal(t, "42", data["seed"])
			assert.Equal(t, "hi", data["word"])
			assert.NotContains(t, stdout, "output", "the result never goes to stdout")
		})
	}
}

func TestSandboxRunnerRefusals(t *testing.T) {
	host := sandboxHost(t)
	cases := []struct {
		name, stdin, code string
		status            int
	}{
		{"unknown native tool", `{"tool_name":"x","handler_entry":{"lane":"native","native":"nope"},"receipt_id":"r"}`, tool.CodeToolNotFound, 0},
		{"unknown command", `{"tool_name":"x","handler_entry":{"lane":"adapter","command":"nope"},"receipt_id":"r"}`, tool.CodeToolNotFound, 0},
		{"unknown lane", `{"tool_name":"x","handler_entry":{"lane":"subprocess"},"receipt_id":"r"}`, tool.CodeExecutionFailed, 0},
		{"garbled request", `{"tool_name":`, tool.CodeExecutionFailed, cli.ExitFailed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, _, status := runSandboxRunner(t, host, c.stdin)
			require.NotNil(t, out.Error)
			assert.Equal(t, c.code, out.Error.Code)
			assert.Equal(t, c.status, status)
		})
	}
}

func TestSandboxRunnerIsHidden(t *testing.T) {
	var out, errb bytes.Buffer
	code := cli.Main([]string{"cmdbridge", "--help"}, &out, &errb, sandboxHost(t))
	assert.Equal(t, 0, code)
	assert.NotContains(t, out.String(), cli.SandboxRunCommand)
	assert.Contains(t, out.String(), "call")
}
