package mcphost_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/mcphost"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestLocate(t *testing.T) {
	withXDG := env(map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/x"})
	noXDG := env(map[string]string{"HOME": "/h"})
	cases := []struct {
		host, scope string
		lookup      func(string) (string, bool)
		path, key   string
		app         string
	}{
		{"claude", "", noXDG, "/p/.mcp.json", "mcpServers", "Claude Code"},
		{"claude", "project", noXDG, "/p/.mcp.json", "mcpServers", "Claude Code"},
		{"claude", "user", withXDG, "/h/.claude.json", "mcpServers", "Claude Code"},
		{"claude-desktop", "user", withXDG, "/x/Claude/claude_desktop_config.json", "mcpServers", "Claude Desktop"},
		{"claude-desktop", "user", noXDG, "/h/.config/Claude/claude_desktop_config.json", "mcpServers", "Claude Desktop"},
		{"vscode", "project", noXDG, "/p/.vscode/mcp.json", "servers", "VS Code"},
		{"vscode", "user", withXDG, "/x/Code/User/mcp.json", "servers", "VS Code"},
		{"vscode", "user", env(map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "rel"}), "/h/.config/Code/User/mcp.json", "servers", "VS Code"},
		{"cursor", "project", noXDG, "/p/.cursor/mcp.json", "mcpServers", "Cursor"},
		{"cursor", "user", withXDG, "/h/.cursor/mcp.json", "mcpServers", "Cursor"},
	}
	for _, tc := range cases {
		t.Run(tc.host+"-"+tc.scope+"-"+tc.path, func(t *testing.T) {
			tg, err := mcphost.Locate(tc.host, tc.scope, tc.lookup, "/p")
			require.NoError(t, err)
			assert.Equal(t, tc.path, tg.Path)
			assert.Equal(t, tc.key, tg.Key)
			assert.Equal(t, tc.app, tg.App)
		})
	}
	for _, bad := range []struct{ host, scope, want string }{
		{"zed", "", `unknown host "zed" (known: claude, claude-desktop, vscode, cursor)`},
		{"claude-desktop", "project", `claude-desktop has no project scope (scopes: user)`},
		{"claude", "global", `scope "global": use project or user`},
	} {
		_, err := mcphost.Locate(bad.host, bad.scope, noXDG, "/p")
		assert.EqualError(t, err, bad.want)
	}
	_, err := mcphost.Locate("cursor", "user", env(nil), "/p")
	assert.EqualError(t, err, "HOME is not set")
}

const existing = `{
    "theme": "dark",
    "mcpServers": {
        "other": {"command": "node", "args": ["server.js"], "env": {"TOKEN": "x"}},
        "zeta": {"url": "https://example.invalid/mcp"}
    },
    "zzz": [1, 2.50, {"b": 1, "a": 2}]
}
`

func target(t *testing.T, host string) mcphost.Target {
	tg, err := mcphost.Locate(host, "project", env(nil), t.TempDir())
	require.NoError(t, err)
	return tg
}

func read(t *testing.T, path string) string {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(data)
}

func TestEnableKeepsTheRestOfTheFileAndIsIdempotent(t *testing.T) {
	tg := target(t, "claude")
	require.NoError(t, os.WriteFile(tg.Path, []byte(existing), 0o600))
	entry := mcphost.Entry{Command: "/opt/bin/cmdbridge", Args: []string{"--workspace", "/p", "mcp", "--profile", "read-only"}}

	ch, err := mcphost.Enable(tg, "cmdbridge-p", entry)
	require.NoError(t, err)
	assert.Equal(t, mcphost.Added, ch.Action)
	assert.Equal(t, tg.Path+".bak", ch.Backup)
	assert.Equal(t, existing, read(t, ch.Backup), "the backup is the previous file, byte for byte")
	want := `{
  "theme": "dark",
  "mcpServers": {
    "other": {
      "command": "node",
      "args": [
        "server.js"
      ],
      "env": {
        "TOKEN": "x"
      }
    },
    "zeta": {
      "url": "https://example.invalid/mcp"
    },
    "cmdbridge-p": {
      "command": "/opt/bin/cmdbridge",
      "args": [
        "--workspace",
        "/p",
        "mcp",
        "--profile",
        "read-only"
      ]
    }
  },
  "zzz": [
    1,
    2.50,
    {
      "b": 1,
      "a": 2
    }
  ]
}
`
	assert.Equal(t, want, read(t, tg.Path))
	st, err := os.Stat(tg.Path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), "the file keeps its mode")

	ch, err = mcphost.Enable(tg, "cmdbridge-p", entry)
	require.NoError(t, err)
	assert.Equal(t, mcphost.Unchanged, ch.Action)
	assert.Empty(t, ch.Backup)
	assert.Equal(t, want, read(t, tg.Path))
	assert.Equal(t, existing, read(t, tg.Path+".bak"), "an unchanged run writes no backup either")

	servers, err := mcphost.Entries(tg)
	require.NoError(t, err)
	assert.Equal(t, []mcphost.Server{
		{Name: "other", Command: "node", Args: []string{"server.js"}},
		{Name: "zeta", URL: "https://example.invalid/mcp"},
		{Name: "cmdbridge-p", Command: "/opt/bin/cmdbridge", Args: entry.Args},
	}, servers)
}

func TestEnableUpdatesOurEntryKeepingItsOtherKeys(t *testing.T) {
	tg := target(t, "cursor")
	require.NoError(t, os.MkdirAll(filepath.Dir(tg.Path), 0o755))
	before := `{"mcpServers":{"cb":{"command":"/old/place/cmdbridge","args":["mcp"],"env":{"A":"1"}}}}`
	require.NoError(t, os.WriteFile(tg.Path, []byte(before), 0o644))
	ch, err := mcphost.Enable(tg, "cb", mcphost.Entry{Command: "/new/cmdbridge", Args: []string{"--workspace", "/p", "mcp"}})
	require.NoError(t, err)
	assert.Equal(t, mcphost.Updated, ch.Action)
	assert.Equal(t, before, read(t, ch.Backup))
	assert.Equal(t, `{
  "mcpServers": {
    "cb": {
      "command": "/new/cmdbridge",
      "args": [
        "--workspace",
        "/p",
        "mcp"
      ],
      "env": {
        "A": "1"
      }
    }
  }
}
`, read(t, tg.Path))
}

func TestEnableCreatesTheFileWithTheHostsShape(t *testing.T) {
	tg := target(t, "vscode")
	ch, err := mcphost.Enable(tg, "cb", mcphost.Entry{Command: "/bin/cmdbridge", Args: []string{"mcp"}})
	require.NoError(t, err)
	assert.Equal(t, mcphost.Added, ch.Action)
	assert.Empty(t, ch.Backup, "no previous file, no backup")
	assert.NoFileExists(t, tg.Path+".bak")
	assert.Equal(t, `{
  "servers": {
    "cb": {
      "type": "stdio",
      "command": "/bin/cmdbridge",
      "args": [
        "mcp"
      ]
    }
  }
}
`, read(t, tg.Path))
	entries, err := os.ReadDir(filepath.Dir(tg.Path))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left behind")
}

func TestRefusalsLeaveTheFileUntouched(t *testing.T) {
	cases := []struct {
		name, content, want string
		foreign             bool
	}{
		{"malformed", `{"mcpServers": {"a": }`, "is not a JSON object we can edit (left untouched)", false},
		{"not an object", `["a"]`, "not a JSON object", false},
		{"trailing data", `{} {}`, "data after the top-level object", false},
		{"servers not an object", `{"mcpServers": []}`, `"mcpServers" is not an object (left untouched)`, false},
		{"duplicate server", `{"mcpServers": {"a": {}, "a": {}}}`, `duplicate key "a"`, false},
		{"another program's entry", `{"mcpServers": {"cb": {"command": "/usr/bin/python3", "args": []}}}`, `server "cb" already launches /usr/bin/python3, another program; choose another --name`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tg := target(t, "claude")
			require.NoError(t, os.WriteFile(tg.Path, []byte(tc.content), 0o644))
			_, err := mcphost.Enable(tg, "cb", mcphost.Entry{Command: "/bin/cmdbridge", Args: []string{"mcp"}})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			var fe *mcphost.ForeignError
			assert.Equal(t, tc.foreign, errors.As(err, &fe))
			assert.Equal(t, tc.content, read(t, tg.Path))
			assert.NoFileExists(t, tg.Path+".bak")
			if !tc.foreign {
				_, err = mcphost.Disable(tg, []string{"cb"})
				require.Error(t, err)
				_, err = mcphost.Entries(tg)
				require.Error(t, err)
				assert.Equal(t, tc.content, read(t, tg.Path))
			}
		})
	}
}

func TestDisableRemovesOnlyTheNamedEntries(t *testing.T) {
	tg := target(t, "claude")
	require.NoError(t, os.WriteFile(tg.Path, []byte(existing), 0o644))
	_, err := mcphost.Enable(tg, "cb", mcphost.Entry{Command: "/bin/cmdbridge", Args: []string{"mcp"}})
	require.NoError(t, err)
	enabled := read(t, tg.Path)

	ch, err := mcphost.Disable(tg, []string{"cb", "not-there"})
	require.NoError(t, err)
	assert.Equal(t, mcphost.Removed, ch.Action)
	assert.Equal(t, []string{"cb"}, ch.Names)
	assert.Equal(t, enabled, read(t, ch.Backup))
	servers, err := mcphost.Entries(tg)
	require.NoError(t, err)
	require.Len(t, servers, 2)
	assert.Equal(t, "other", servers[0].Name)
	assert.Equal(t, "zeta", servers[1].Name)
	assert.Contains(t, read(t, tg.Path), `"theme": "dark"`)
	assert.Contains(t, read(t, tg.Path), `"TOKEN": "x"`)

	after := read(t, tg.Path)
	ch, err = mcphost.Disable(tg, []string{"cb"})
	require.NoError(t, err)
	assert.Equal(t, mcphost.Absent, ch.Action)
	assert.Empty(t, ch.Backup)
	assert.Equal(t, after, read(t, tg.Path))
	assert.Equal(t, enabled, read(t, tg.Path+".bak"), "nothing removed, nothing written")

	missing := target(t, "cursor")
	ch, err = mcphost.Disable(missing, []string{"cb"})
	require.NoError(t, err)
	assert.Equal(t, mcphost.Absent, ch.Action)
	assert.NoFileExists(t, missing.Path)
}

// TestDisableUndoesWhatEnableCreated: enable on a project with no host file, then
// disable, leaves the project as it was: no empty file, no backup, no empty .vscode.
func TestDisableUndoesWhatEnableCreated(t *testing.T) {
	for _, host := range []string{"claude", "vscode", "cursor"} {
		t.Run(host, func(t *testing.T) {
			project := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(project, "README"), []byte("x"), 0o644))
			tg, err := mcphost.Locate(host, "project", env(nil), project)
			require.NoError(t, err)
			before := listing(t, project)
			_, err = mcphost.Enable(tg, "cb", mcphost.Entry{Command: "/bin/cmdbridge", Args: []string{"mcp"}})
			require.NoError(t, err)
			require.FileExists(t, tg.Path)
			ch, err := mcphost.Disable(tg, []string{"cb"})
			require.NoError(t, err)
			assert.Equal(t, mcphost.Removed, ch.Action)
			assert.True(t, ch.FileRemoved)
			assert.Empty(t, ch.Backup)
			assert.Equal(t, before, listing(t, project), "disable removes what enable created")
		})
	}
}

func listing(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		rel, _ := filepath.Rel(dir, p)
		out = append(out, rel)
		return err
	}))
	return out
}
