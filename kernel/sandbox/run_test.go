package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/tool"
)

func TestRunProtocol(t *testing.T) {
	r := realRunner(t)
	exe, err := os.Executable()
	require.NoError(t, err)
	d := scratch(t)

	t.Run("stray prints cannot break the result", func(t *testing.T) {
		out, _ := call(t, r, d.request("print", testInput{}))
		assert.Equal(t, json.RawMessage(`{"printed":true}`), out.Data)
		assert.Equal(t, "rcpt-print", out.Metadata["receipt_id"])
		assert.NotContains(t, out.Metadata, "stdout_tail", "a success carries no stream tails")
	})
	t.Run("a tool failure keeps its code and gets the stderr tail", func(t *testing.T) {
		out, _ := r.Run(context.Background(), d.request("fail", testInput{}))
		require.NotNil(t, out.Error)
		assert.Equal(t, tool.CodeNotFound, out.Error.Code)
		assert.Contains(t, out.Metadata["stderr_tail"], "the tool explains its failure")
	})
	t.Run("a panic is INTERNAL", func(t *testing.T) {
		out, _ := r.Run(context.Background(), d.request("panic", testInput{}))
		require.NotNil(t, out.Error)
		assert.Equal(t, tool.CodeInternal, out.Error.Code)
		assert.Contains(t, out.Error.Message, "panic: boom")
	})
	t.Run("profile facts reach metadata and info", func(t *testing.T) {
		req := d.request("noop", testInput{})
		out, info := r.Run(context.Background(), req)
		require.True(t, out.Success)
		_, hash := Profile(req, r.Host())
		assert.Equal(t, hash, info.ProfileHash)
		assert.Equal(t, hash, out.Metadata["sandbox_profile_hash"])
		assert.Equal(t, string(r.Host()), out.Metadata["sandbox_host"])
		assert.Equal(t, exe, info.Argv[len(info.Argv)-2])
	})
	t.Run("a workspace outside every scope is refused", func(t *testing.T) {
		req := d.request("noop", testInput{})
		req.Workspace = d.secret
		out, info := r.Run(context.Background(), req)
		require.NotNil(t, out.Error)
		assert.Equal(t, tool.CodeScopeDenied, out.Error.Code)
		assert.Empty(t, info.Argv)
	})
	t.Run("cancellation kills the sandbox", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(200*time.Millisecond, cancel)
		out, _ := r.Run(ctx, d.request("daemon", testInput{Marker: "cancel-" + filepath.Base(d.base)}))
		require.NotNil(t, out.Error)
		assert.Equal(t, tool.CodeCancelled, out.Error.Code)
	})

	broken := []struct {
		name, arg, message string
	}{
		{"garbled result", argGarble, "garbled result"},
		{"no result", argSilent, "runner exploded: cannot frobnicate"},
	}
	for _, b := range broken {
		t.Run(b.name+" is EXECUTION_FAILED with the stderr tail", func(t *testing.T) {
			rb, err := New(Config{Runner: []string{exe, b.arg}})
			require.NoError(t, err)
			out, _ := rb.Run(context.Background(), d.request("noop", testInput{}))
			require.NotNil(t, out.Error)
			assert.Equal(t, tool.CodeExecutionFailed, out.Error.Code)
			assert.Contains(t, out.Error.Message, b.message)
			assert.Equal(t, "rcpt-noop", out.Metadata["receipt_id"])
		})
	}
	t.Run("an oversized result is EXECUTION_FAILED", func(t *testing.T) {
		rb, err := New(Config{Runner: []string{exe, argRunner}, MaxResult: 16})
		require.NoError(t, err)
		out, _ := rb.Run(context.Background(), d.request("noop", testInput{}))
		require.NotNil(t, out.Error)
		assert.Equal(t, tool.CodeExecutionFailed, out.Error.Code)
		assert.Contains(t, out.Error.Message, "larger than 16 bytes")
	})
}

func TestNewRejectsUnusableOptions(t *testing.T) {
	for name, opts := range map[string]Config{
		"no runner":       {},
		"relative runner": {Runner: []string{"cmdbridge", "__sandbox-run"}},
		"missing runner":  {Runner: []string{filepath.Join(t.TempDir(), "gone")}},
	} {
		_, err := New(opts)
		assert.Error(t, err, name)
	}
}

func TestServe(t *testing.T) {
	cases := []struct {
		name, stdin string
		wantErr     bool
		code        string
		receipt     string
	}{
		{"runs the tool and echoes the receipt", `{"tool_name":"noop","input":{},"receipt_id":"r-9"}`, false, "", "r-9"},
		{"garbled request", `{"tool_name":`, true, tool.CodeExecutionFailed, ""},
		{"no tool name", `{"receipt_id":"r-1"}`, true, tool.CodeExecutionFailed, "r-1"},
		{"panic", `{"tool_name":"panic","receipt_id":"r-2"}`, false, tool.CodeInternal, "r-2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pr, pw, err := os.Pipe()
			require.NoError(t, err)
			defer pr.Close()
			err = Serve(context.Background(), strings.NewReader(c.stdin), pw, testTool)
			assert.Equal(t, c.wantErr, err != nil, "%v", err)
			var buf bytes.Buffer
			_, err = buf.ReadFrom(pr) // EOF proves Serve closed the result descriptor
			require.NoError(t, err)
			var doc struct {
				Output tool.Output `json:"output"`
			}
			require.NoError(t, json.Unmarshal(buf.Bytes(), &doc), buf.String())
			assert.Equal(t, c.receipt, doc.Output.Metadata["receipt_id"])
			if c.code == "" {
				assert.True(t, doc.Output.Success)
			} else {
				require.NotNil(t, doc.Output.Error)
				assert.Equal(t, c.code, doc.Output.Error.Code)
			}
		})
	}
}
