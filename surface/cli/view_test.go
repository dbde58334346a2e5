package cli_test

import (
	"encoding/json"
	"io"
	"net/http"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/surface/cli/clitest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestViewFlagsOnEveryCommand: --profile and --tools mean the same on tools list, call,
// batch and serve as on mcp: only the view's tools are listed, and the others refused.
func TestViewFlagsOnEveryCommand(t *testing.T) {
	ws := clitest.Workspace(t)
	want := readOnlyTools(t, ws) // sorted, MCP spelling

	stdout, stderr, code := run(t, ws, "tools", "list", "--json", "--profile", "read-only")
	require.Equal(t, 0, code, stderr)
	var rows []struct {
		Name string `json:"name"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &rows))
	var listed []string
	for _, r := range rows {
		listed = append(listed, tool.MCPName(r.Name))
	}
	sort.Strings(listed)
	assert.Equal(t, want, listed, "tools list --profile read-only")

	stdout, _, code = run(t, ws, "call", "--profile", "read-only", "doc:write", "--input", `{"path":"b.txt","content":"x"}`)
	assert.Equal(t, 1, code)
	assert.Equal(t, tool.CodeToolDisabled, clitest.DecodeOutput(t, stdout).Error.Code)
	stdout, stderr, code = run(t, ws, "call", "--tools", "doc:*", "doc:read", "--input", `{"path":"a.txt"}`)
	require.Equal(t, 0, code, stderr)
	assert.True(t, clitest.DecodeOutput(t, stdout).Success)

	host := fixtureHost()
	var mintOut, mintErr strings.Builder
	require.Equal(t, 0, cli.Main([]string{"cmdbridge", "--workspace", ws, "token", "mint", "--subject", "ws-1", "--tools", "*", "--read", "."}, &mintOut, &mintErr, host), mintErr.String())
	tok := strings.TrimSpace(mintOut.String())
	url, exited := clitest.StartServe(t, ws, host, "--tools", "doc:*")
	req, err := http.NewRequest("GET", url+"/tools", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	var doc struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(b, &doc), string(b))
	require.NotEmpty(t, doc.Tools)
	for _, tl := range doc.Tools {
		assert.True(t, strings.HasPrefix(tl.Name, "doc:"), "serve --tools 'doc:*' listed %s", tl.Name)
	}
	require.NoError(t, syscall.Kill(syscall.Getpid(), syscall.SIGTERM))
	code, stderr = exited(t)
	assert.Equal(t, 0, code, stderr)
}
