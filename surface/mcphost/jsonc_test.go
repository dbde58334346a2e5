package mcphost_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/mcphost"
)

// jsoncFile is a .vscode/mcp.json as people write it: comments of both kinds, a
// trailing comma, tabs.
const jsoncFile = `// Servers for this repository.
{
	/* inputs the servers use */
	"inputs": [],
	"servers": {
		// the linter
		"lint": {"type": "stdio", "command": "lint-mcp", "args": []}, // keep me
		"docs": {
			"url": "https://example.invalid/mcp", // remote
		},
	},
}
`

// TestJSONCIsEditedInPlace: a file with comments and trailing commas is read, our
// entry is added, updated and removed, and every other byte stays as it was.
func TestJSONCIsEditedInPlace(t *testing.T) {
	tg := target(t, "vscode")
	require.NoError(t, os.MkdirAll(strings.TrimSuffix(tg.Path, "/mcp.json"), 0o755))
	require.NoError(t, os.WriteFile(tg.Path, []byte(jsoncFile), 0o644))

	entries, err := mcphost.Entries(tg)
	require.NoError(t, err)
	require.Len(t, entries, 2)
	assert.Equal(t, "lint-mcp", entries[0].Command)

	ch, err := mcphost.Enable(tg, "cb", mcphost.Entry{Command: "cmdbridge", Args: []string{"--workspace", "${workspaceFolder}", "mcp"}})
	require.NoError(t, err)
	assert.Equal(t, mcphost.Added, ch.Action)
	assert.Equal(t, jsoncFile, read(t, ch.Backup))
	added := read(t, tg.Path)
	assert.Equal(t, `// Servers for this repository.
{
	/* inputs the servers use */
	"inputs": [],
	"servers": {
		// the linter
		"lint": {"type": "stdio", "command": "lint-mcp", "args": []}, // keep me
		"docs": {
			"url": "https://example.invalid/mcp", // remote
		},
		"cb": {
			"type": "stdio",
			"command": "cmdbridge",
			"args": [
				"--workspace",
				"${workspaceFolder}",
				"mcp"
			]
		},
	},
}
`, added)

	// Idempotent, and an update touches only our entry.
	ch, err = mcphost.Enable(tg, "cb", mcphost.Entry{Command: "cmdbridge", Args: []string{"--workspace", "${workspaceFolder}", "mcp"}})
	require.NoError(t, err)
	assert.Equal(t, mcphost.Unchanged, ch.Action)
	ch, err = mcphost.Enable(tg, "cb", mcphost.Entry{Command: "cmdbridge", Args: []string{"mcp"}})
	require.NoError(t, err)
	assert.Equal(t, mcphost.Updated, ch.Action)
	assert.Equal(t, strings.Replace(added, "\t\t\t\t\"--workspace\",\n\t\t\t\t\"${workspaceFolder}\",\n", "", 1), read(t, tg.Path))

	// Disable gives the original file back, byte for byte.
	ch, err = mcphost.Disable(tg, []string{"cb"})
	require.NoError(t, err)
	assert.Equal(t, mcphost.Removed, ch.Action)
	assert.False(t, ch.FileRemoved, "a file with comments is the user's: it stays")
	assert.Equal(t, jsoncFile, read(t, tg.Path))

	// Removing the others keeps the comments around them.
	_, err = mcphost.Disable(tg, []string{"lint", "docs"})
	require.NoError(t, err)
	assert.Equal(t, `// Servers for this repository.
{
	/* inputs the servers use */
	"inputs": [],
	"servers": {
		// the linter
	},
}
`, read(t, tg.Path))
	_, err = mcphost.Enable(tg, "cb", mcphost.Entry{Command: "cmdbridge", Args: []string{"mcp"}})
	require.NoError(t, err)
	var v map[string]any
	assert.Error(t, json.Unmarshal([]byte(read(t, tg.Path)), &v), "still JSONC")
	entries, err = mcphost.Entries(tg)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Equal(t, "cmdbridge", entries[0].Command)
	assert.Contains(t, read(t, tg.Path), "// the linter")
}

// TestJSONCWithoutTheServersKey: the servers object is added to a JSONC file that has
// none, after its last member and its comments.
func TestJSONCWithoutTheServersKey(t *testing.T) {
	tg := target(t, "cursor")
	require.NoError(t, os.MkdirAll(strings.TrimSuffix(tg.Path, "/mcp.json"), 0o755))
	require.NoError(t, os.WriteFile(tg.Path, []byte("{\n  \"x\": 1, // one\n}\n"), 0o644))
	_, err := mcphost.Enable(tg, "cb", mcphost.Entry{Command: "cmdbridge", Args: []string{}})
	require.NoError(t, err)
	assert.Equal(t, "{\n  \"x\": 1, // one\n  \"mcpServers\": {\n    \"cb\": {\n      \"command\": \"cmdbridge\",\n      \"args\": []\n    }\n  },\n}\n", read(t, tg.Path))
	for _, bad := range []string{"{\"a\": 1 /* open", "{\"a\": \"open}", "[1,]"} {
		require.NoError(t, os.WriteFile(tg.Path, []byte(bad), 0o644))
		_, err := mcphost.Enable(tg, "cb", mcphost.Entry{Command: "cmdbridge"})
		assert.Error(t, err, bad)
		assert.Equal(t, bad, read(t, tg.Path))
	}
}

// TestJSONCShapes: an empty servers object holding only a comment, a one-line file, a
// last member followed by a comment and no comma, and a null servers key.
func TestJSONCShapes(t *testing.T) {
	e := mcphost.Entry{Command: "cmdbridge", Args: []string{}}
	for _, tc := range []struct{ in, want string }{
		{"{\n  \"mcpServers\": { // none yet\n  }\n}\n",
			"{\n  \"mcpServers\": { // none yet\n    \"cb\": {\n      \"command\": \"cmdbridge\",\n      \"args\": []\n    }\n  }\n}\n"},
		{"{\"mcpServers\": {\"a\": {\"command\": \"x\"}}} // one line\n",
			"{\"mcpServers\": {\"a\": {\"command\": \"x\"},\n  \"cb\": {\n    \"command\": \"cmdbridge\",\n    \"args\": []\n  }\n}} // one line\n"},
		{"{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"} // a\n  }\n}\n",
			"{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}, // a\n    \"cb\": {\n      \"command\": \"cmdbridge\",\n      \"args\": []\n    }\n  }\n}\n"},
		{"{\n  // nothing yet\n  \"mcpServers\": null\n}\n",
			"{\n  // nothing yet\n  \"mcpServers\": {\n    \"cb\": {\n      \"command\": \"cmdbridge\",\n      \"args\": []\n    }\n  }\n}\n"},
	} {
		tg := target(t, "cursor")
		require.NoError(t, os.MkdirAll(strings.TrimSuffix(tg.Path, "/mcp.json"), 0o755))
		require.NoError(t, os.WriteFile(tg.Path, []byte(tc.in), 0o644))
		_, err := mcphost.Enable(tg, "cb", e)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, read(t, tg.Path), tc.in)
		_, err = mcphost.Disable(tg, []string{"cb"})
		require.NoError(t, err)
		entries, err := mcphost.Entries(tg)
		require.NoError(t, err, read(t, tg.Path))
		for _, s := range entries {
			assert.NotEqual(t, "cb", s.Name)
		}
	}
}
