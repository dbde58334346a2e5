package http_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/mcpclienttest"
	surfacehttp "github.com/cmdbridge/cmdbridge/surface/http"
	"github.com/cmdbridge/cmdbridge/tool"
)

// inspectorCLI runs the MCP Inspector's CLI pinned in testdata/mcpclient with args and
// returns its stdout; a HOME of the test's own keeps its catalog file out of the user's.
func inspectorCLI(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := mcpclienttest.Inspector(ctx, t, args...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}

// TestInspectorCLIWithToken: the official MCP Inspector's CLI, given the token in an
// Authorization header, lists the token's tools and calls one over streamable HTTP; it
// never starts OAuth. Without the token it fails on the 401 and lists nothing.
func TestInspectorCLIWithToken(t *testing.T) {
	f := newFixture(t, surfacehttp.Config{})
	tok := mintToken(t, "ws-1", []string{"t:echo", "t:slow"}, []string{"."}, nil, time.Hour)
	url := f.ts.URL + "/mcp"
	auth := "Authorization: Bearer " + tok

	out, stderr, err := inspectorCLI(t, url, "--transport", "http", "--header", auth, "--method", "tools/list")
	require.NoError(t, err, stderr)
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &list), out)
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	assert.ElementsMatch(t, []string{"t_echo", "t_slow"}, names)

	out, stderr, err = inspectorCLI(t, url, "--transport", "http", "--header", auth,
		"--method", "tools/call", "--tool-name", "t_echo", "--tool-arg", "text=hi")
	require.NoError(t, err, stderr)
	var res struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	require.NotEmpty(t, res.Content)
	require.False(t, res.IsError, out)
	var got tool.Output
	require.NoError(t, json.Unmarshal([]byte(res.Content[0].Text), &got))
	assert.Equal(t, map[string]any{"text": "hi"}, got.Data)
	assert.Equal(t, "ws-1", f.waitResult(t).Receipt.Subject)

	out, stderr, err = inspectorCLI(t, url, "--transport", "http", "--method", "tools/list")
	require.Error(t, err, "no token, no tools: %s", out)
	assert.NotContains(t, out, "t_echo")
	t.Logf("without a token the Inspector says: %s", strings.TrimSpace(stderr))
}
