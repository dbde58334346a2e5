package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"

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
		assert.Equal(t, tc.want, ours(tc.s, exe, ws), "%+v", tc.s)
	}
}
