package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/mcpclienttest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestInspectorCLIStdio: the official MCP Inspector's CLI (pinned in testdata/mcpclient)
// starts the stdio server (this test binary as a child process, like cmdbridge mcp),
// lists its tools and calls one. surface/http's TestInspectorCLIWithToken does the same
// over streamable HTTP with a token.
func TestInspectorCLIStdio(t *testing.T) {
	ws := t.TempDir()
	inspect := func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		argv := append([]string{"-e", childEnv + "=" + ws}, args...)
		cmd := mcpclienttest.Inspector(ctx, t, append(argv, "--", os.Args[0], "-test.run=^$")...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		require.NoError(t, err, "inspector %s\nstderr:\n%s", strings.Join(args, " "), stderr.String())
		return string(out)
	}

	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	out := inspect("--method", "tools/list")
	require.NoError(t, json.Unmarshal([]byte(out), &list), out)
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	assert.Contains(t, names, "fx_echo")

	out = inspect("--method", "tools/call", "--tool-name", "fx_echo", "--tool-arg", "text=hi")
	var res struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	require.NotEmpty(t, res.Content, out)
	require.False(t, res.IsError, out)
	var got tool.Output
	require.NoError(t, json.Unmarshal([]byte(res.Content[0].Text), &got))
	assert.True(t, got.Success, out)
	assert.Contains(t, res.Content[0].Text, "hi")
}
