package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/mcphost"
)

func TestDefaultServerName(t *testing.T) {
	for ws, want := range map[string]string{
		"/src/delivery":     "cmdbridge-delivery",
		"/src/My Repo_v2.1": "cmdbridge-my-repo-v2-1",
		"/src/--x--":        "cmdbridge-x",
		"/src/Ünïcode":      "cmdbridge-n-code",
		"/":                 "cmdbridge",
		"/src/___":          "cmdbridge",
	} {
		assert.Equal(t, want, defaultServerName(ws), ws)
	}
}

func TestOursMatchesProgramAndWorkspace(t *testing.T) {
	const exe, ws = "/opt/bin/cmdbridge", "/src/repo"
	cases := []struct {
		s    mcphost.Server
		want bool
	}{
		{mcphost.Server{Command: exe, Args: []string{"--workspace", ws, "mcp"}}, true},
		{mcphost.Server{Command: "/old/cmdbridge", Args: []string{"--workspace", ws, "mcp"}}, true},
		{mcphost.Server{Command: exe, Args: []string{"--workspace", "/src/other", "mcp"}}, false},
		{mcphost.Server{Command: exe, Args: []string{"mcp", "--workspace"}}, false},
		{mcphost.Server{Command: "node", Args: []string{"--workspace", ws}}, false},
		{mcphost.Server{URL: "https://example.invalid/mcp"}, false},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, ours(tc.s, exe, ws, ""), "%+v", tc.s)
	}
	// In a project-scope file the workspace is the host's variable, the program its name.
	portableEntry := mcphost.Server{Command: "cmdbridge", Args: []string{"--workspace", "${workspaceFolder}", "mcp"}}
	assert.True(t, ours(portableEntry, exe, ws, "${workspaceFolder}"))
	assert.False(t, ours(portableEntry, exe, ws, ""), "a user-scope file names the workspace by its path")
}

// TestPortableCommand: a project-scope file names the program by its name when PATH
// finds that same program, else by the host's project variable when it is inside the
// workspace, and refuses a path that only this machine has.
func TestPortableCommand(t *testing.T) {
	ws, elsewhere, onPath := t.TempDir(), t.TempDir(), t.TempDir()
	write := func(path string) string {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755))
		return path
	}
	inside := write(filepath.Join(ws, "bin", "tool"))
	outside := write(filepath.Join(elsewhere, "tool"))
	found := write(filepath.Join(onPath, "found"))
	write(filepath.Join(onPath, "tool")) // another program of the same name
	t.Setenv("PATH", onPath)
	vscode, err := mcphost.Locate("vscode", "project", nil, ws)
	require.NoError(t, err)
	claude, err := mcphost.Locate("claude", "project", nil, ws)
	require.NoError(t, err)

	got, err := portable(vscode, inside, ws)
	require.NoError(t, err)
	assert.Equal(t, "${workspaceFolder}/bin/tool", got, "PATH's tool is another program")
	got, err = portable(claude, inside, ws)
	require.NoError(t, err)
	assert.Equal(t, "${CLAUDE_PROJECT_DIR:-.}/bin/tool", got)
	got, err = portable(claude, found, ws)
	require.NoError(t, err)
	assert.Equal(t, "found", got)
	_, err = portable(vscode, outside, ws)
	assert.ErrorContains(t, err, "neither inside the workspace nor found as \"tool\" on PATH")
}

// TestServerNameIsTheProgram: the MCP server reports the program whose tools it
// serves: gizmo for `gizmo bridge`, cmdbridge standalone, and the wrapped program for
// `cmdbridge wrap PROGRAM` (Host.ServerName), not "cmdbridge".
func TestServerNameIsTheProgram(t *testing.T) {
	assert.Equal(t, "gizmo", Host{Name: "gizmo bridge"}.serverName())
	assert.Equal(t, "cmdbridge", Host{}.serverName())
	assert.Equal(t, "dbkit", Host{Name: "cmdbridge wrap ./bin/dbkit", ServerName: "dbkit"}.serverName())
}
