package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"testing"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
	"github.com/cmdbridge/cmdbridge/surface/mcp/mcptest"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// fx:cat is a legacy command that prints the file --file names, "-" reading standard
// input; fx:ncat is its native twin reading tool.Env.Stdin.
func newCatApp() *cli.App {
	return &cli.App{
		Name:  "fx:cat",
		Usage: "Print a file; - reads standard input.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "file", Usage: "file to read, or - for standard input", Required: true},
			&cli.BoolFlag{Name: "json", Usage: "print the JSON envelope"},
		},
		Metadata: map[string]interface{}{legacy.MetaReadOnly: true},
		Action: func(c *cli.Context) error {
			if c.String("file") != "-" {
				return cli.Exit("only - is supported", 2)
			}
			b, err := io.ReadAll(os.Stdin)
			if err != nil {
				return cli.Exit(err.Error(), 1)
			}
			env, _ := json.Marshal(map[string]any{"ok": true, "command": "fx:cat", "data": string(b), "error": nil, "warnings": []string{}})
			fmt.Println(string(env))
			return nil
		},
	}
}

type catIn struct {
	File string `json:"file"`
}

// catKernel serves fx:cat and fx:ncat with a stdin limit of maxStdin bytes; the function
// it returns lists the stdin_hash of every finished call's receipt.
func catKernel(t *testing.T, maxStdin int) (*kernel.Kernel, func() []string) {
	t.Helper()
	cmds := legacy.NewRegistry()
	require.NoError(t, cmds.Add(legacy.Command{Name: "fx:cat", Domain: "fx", New: newCatApp,
		Main: func(ctx context.Context) { _ = newCatApp().RunContext(ctx, os.Args) }}))
	nreg := native.NewRegistry()
	require.NoError(t, nreg.Add(native.New(tool.Spec{Name: "fx:ncat", Description: "Print standard input.",
		Annotations: tool.Annotations{ReadOnlyHint: true}},
		func(ctx context.Context, env *tool.Env, in catIn) tool.Output {
			b, err := io.ReadAll(env.Stdin)
			if err != nil {
				return tool.Fail(tool.CodeExecutionFailed, "%v", err)
			}
			return tool.OK(string(b))
		})))
	var mu sync.Mutex
	var hashes []string
	k, err := assemble.Kernel(assemble.Config{
		Config: kernel.Config{
			Workspace: t.TempDir(),
			MaxStdin:  maxStdin,
			Evidence:  kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
			OnResult: func(_ kernel.Request, res kernel.Result) {
				mu.Lock()
				hashes = append(hashes, res.Receipt.StdinHash)
				mu.Unlock()
			},
		},
		Commands: cmds,
		Native:   nreg,
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })
	return k, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), hashes...)
	}
}

func TestCallCarriesStdinInMeta(t *testing.T) {
	k, hashes := catKernel(t, 64)
	cs := connectInMemory(t, k)
	call := func(t *testing.T, name string, meta sdkmcp.Meta) tool.Output {
		res, err := cs.CallTool(context.Background(), &sdkmcp.CallToolParams{Name: name,
			Arguments: map[string]any{"file": "-"}, Meta: meta})
		require.NoError(t, err)
		return mcptest.DecodeResult(t, res)
	}
	for _, name := range []string{"fx_cat", "fx_ncat"} {
		t.Run(name, func(t *testing.T) {
			out := call(t, name, sdkmcp.Meta{mcp.StdinMetaKey: "one\ntwo\n"})
			require.True(t, out.Success, "%+v", out.Error)
			assert.Equal(t, "one\ntwo\n", out.Data)

			out = call(t, name, nil)
			require.True(t, out.Success, "%+v", out.Error)
			assert.Equal(t, "", out.Data, "no _meta stdin reads empty")
		})
	}
	t.Run("not a string", func(t *testing.T) {
		before := len(hashes())
		res, err := cs.CallTool(context.Background(), &sdkmcp.CallToolParams{Name: "fx_cat",
			Arguments: map[string]any{"file": "-"}, Meta: sdkmcp.Meta{mcp.StdinMetaKey: 42}})
		require.NoError(t, err)
		require.Len(t, res.Content, 1)
		var out tool.Output
		require.NoError(t, json.Unmarshal([]byte(res.Content[0].(*sdkmcp.TextContent).Text), &out))
		assert.True(t, res.IsError)
		require.NotNil(t, out.Error)
		assert.Equal(t, tool.CodeInvalidInput, out.Error.Code)
		assert.Contains(t, out.Error.Message, mcp.StdinMetaKey)
		assert.Len(t, hashes(), before, "refused before the kernel")
	})
	t.Run("over the limit", func(t *testing.T) {
		out := call(t, "fx_ncat", sdkmcp.Meta{mcp.StdinMetaKey: string(make([]byte, 65))})
		require.NotNil(t, out.Error)
		assert.Equal(t, tool.CodeInvalidInput, out.Error.Code)
		assert.Contains(t, out.Error.Message, "limit of 64 bytes")
	})
	h := hashes()
	require.Len(t, h, 5)
	assert.NotEmpty(t, h[0])
	assert.Empty(t, h[1])
	assert.Equal(t, h[0], h[2], "the same stdin on either lane hashes the same")
	assert.NotEmpty(t, h[4], "the refused stdin is on the record")
}

// TestAnApprovalIsForItsStdin: an approval asked by elicitation for a call with one
// stdin does not approve a retry carrying another.
func TestAnApprovalIsForItsStdin(t *testing.T) {
	k := newFixtureKernel(t, t.TempDir(), nil)
	t.Cleanup(func() { _ = k.Close() })
	client := &elicitingClient{answer: &sdkmcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	cs := connectVersion(t, k, "2026-07-28", &sdkmcp.ClientOptions{ElicitationHandler: client.handle,
		MultiRoundTrip: &sdkmcp.MultiRoundTripOptions{Disabled: true}})
	ctx := context.Background()
	asked := sdkmcp.Meta{mcp.StdinMetaKey: "asked about"}
	first, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_wipe", Arguments: map[string]any{}, Meta: asked})
	require.NoError(t, err)
	require.True(t, first.NeedsInput())
	question := first.InputRequests[mcp.ApprovalInputKey].(*sdkmcp.ElicitParams)
	assert.Contains(t, question.Message, "Stdin: SHA-256 ", "the person sees that the call has stdin")
	yes := sdkmcp.InputResponseMap{mcp.ApprovalInputKey: &sdkmcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}

	for _, other := range []sdkmcp.Meta{{mcp.StdinMetaKey: "something else"}, nil} {
		swapped, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_wipe", Arguments: map[string]any{},
			Meta: other, InputResponses: yes, RequestState: first.RequestState})
		require.NoError(t, err)
		out := mcptest.DecodeResult(t, swapped)
		require.NotNil(t, out.Error, "%v", other)
		assert.Equal(t, tool.CodeApprovalDenied, out.Error.Code)
		assert.Contains(t, out.Error.Message, "stdin differs")
	}

	honest, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_wipe", Arguments: map[string]any{},
		Meta: asked, InputResponses: yes, RequestState: first.RequestState})
	require.NoError(t, err)
	out := mcptest.DecodeResult(t, honest)
	require.True(t, out.Success, "%+v", out.Error)
}
