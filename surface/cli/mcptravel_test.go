package cli_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cmdbridge/cmdbridge/surface/cli/clitest"
	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// asCmdbridge makes the test binary run as cmdbridge (TestMain): the program a host
// configuration written by mcp enable launches.
const asCmdbridge = "CMDBRIDGE_TEST_AS_CMDBRIDGE"

var claudeVar = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}`)

// expandLike expands s as host does when it starts a server: VS Code and Cursor replace
// ${workspaceFolder} with the folder open in the window; Claude Code expands ${VAR} and
// ${VAR:-default} from its environment and leaves an unset ${VAR} as written (its docs,
// "Environment variable expansion in .mcp.json").
func expandLike(host, s, folder string, env map[string]string) string {
	if host != "claude" {
		return strings.ReplaceAll(s, "${workspaceFolder}", folder)
	}
	return claudeVar.ReplaceAllStringFunc(s, func(m string) string {
		sub := claudeVar.FindStringSubmatch(m)
		if v, ok := env[sub[1]]; ok && v != "" {
			return v
		}
		if strings.Contains(m, ":-") {
			return sub[2]
		}
		return m
	})
}

// TestMCPProjectConfigTravels: the project-scope files mcp enable writes hold no path of
// this machine, and each starts a working server the way its host starts it, in a
// teammate's clone at another path, after the original workspace is gone: the host's
// variables expanded as the host expands them, the command found on PATH, started from
// another directory (or, for Claude Code without CLAUDE_PROJECT_DIR, from the project
// directory, where Claude Code starts project servers); then MCP initialize, tools/list
// and a call that reads a file of the clone.
func TestMCPProjectConfigTravels(t *testing.T) {
	ws := clitest.Workspace(t)
	t.Setenv("HOME", t.TempDir())
	exe, err := os.Executable()
	require.NoError(t, err)
	t.Setenv("PATH", filepath.Dir(exe)+string(os.PathListSeparator)+os.Getenv("PATH"))
	files := map[string]string{"claude": ".mcp.json", "vscode": ".vscode/mcp.json", "cursor": ".cursor/mcp.json"}
	// VS Code writes JSONC: the team's comment survives enable.
	require.NoError(t, os.MkdirAll(filepath.Join(ws, ".vscode"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, files["vscode"]), []byte("{\n  // the team's servers\n  \"servers\": {}\n}\n"), 0o644))
	for host := range files {
		_, stderr, code := runSelf(t, ws, "mcp", "enable", host, "--name", "cb")
		require.Equal(t, 0, code, stderr)
	}

	// The teammate's clone: the committed files, at another path; the original is gone.
	clone := filepath.Join(t.TempDir(), "teammate", "clone")
	for _, rel := range append([]string{"a.txt"}, files["claude"], files["vscode"], files["cursor"]) {
		data, err := os.ReadFile(filepath.Join(ws, rel))
		require.NoError(t, err)
		require.NotContains(t, string(data), ws, "%s names this machine's workspace", rel)
		require.NotContains(t, string(data), exe, "%s names this machine's binary", rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(clone, rel)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(clone, rel), data, 0o644))
	}
	require.NoError(t, os.RemoveAll(ws))
	elsewhere := t.TempDir()

	cases := []struct {
		name, host string
		env        map[string]string // the host's environment, for Claude Code's expansion
		cwd        string
	}{
		{"vscode", "vscode", nil, elsewhere},
		{"cursor", "cursor", nil, elsewhere},
		{"claude/in-project", "claude", map[string]string{}, clone},
		{"claude/CLAUDE_PROJECT_DIR", "claude", map[string]string{"CLAUDE_PROJECT_DIR": clone}, elsewhere},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var cfg map[string]map[string]struct {
				Type    string   `json:"type"`
				Command string   `json:"command"`
				Args    []string `json:"args"`
			}
			data, err := os.ReadFile(filepath.Join(clone, files[tc.host]))
			require.NoError(t, err)
			if tc.host == "vscode" {
				require.Contains(t, string(data), "  // the team's servers\n")
				data = []byte(strings.Replace(string(data), "// the team's servers", "", 1))
			}
			require.NoError(t, json.Unmarshal(data, &cfg))
			key := "mcpServers"
			if tc.host == "vscode" {
				key = "servers"
			}
			entry := cfg[key]["cb"]
			require.NotEmpty(t, entry.Command)
			command := expandLike(tc.host, entry.Command, clone, tc.env)
			var args []string
			for _, a := range entry.Args {
				args = append(args, expandLike(tc.host, a, clone, tc.env))
			}
			if !strings.Contains(command, "/") {
				command, err = exec.LookPath(command)
				require.NoError(t, err, "the command is found on PATH")
			} else if !filepath.IsAbs(command) {
				command = filepath.Join(tc.cwd, command)
			}

			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, command, args...)
			cmd.Dir = tc.cwd
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, "CLAUDE_PROJECT_DIR=") {
					cmd.Env = append(cmd.Env, kv)
				}
			}
			cmd.Env = append(cmd.Env, asCmdbridge+"=1")
			for k, v := range tc.env {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			cs, err := sdkmcp.NewClient(&sdkmcp.Implementation{Name: tc.host, Version: "0"}, nil).
				Connect(ctx, &sdkmcp.CommandTransport{Command: cmd}, nil)
			require.NoError(t, err, "%s %v", command, args)
			defer cs.Close()
			list, err := cs.ListTools(ctx, nil)
			require.NoError(t, err)
			assert.Len(t, list.Tools, len(fxTools(t)), "every tool of the fixture")
			res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "doc_read", Arguments: map[string]any{"path": "a.txt"}})
			require.NoError(t, err)
			text := res.Content[0].(*sdkmcp.TextContent).Text
			require.False(t, res.IsError, text)
			assert.Contains(t, text, "hello", "the server's workspace is the clone")
		})
	}
}
