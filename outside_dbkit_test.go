package cmdbridge_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/outsidetest"
)

// dbkitLeaves are dbkit's commands; dump alone declares its positionals.
var dbkitLeaves = []string{"new", "create", "drop", "up", "migrate", "rollback", "status", "dump", "load", "wait"}

const undeclared = "positionals undeclared: args is passed after --; declare ArgsUsage to get named properties"

// dbkitWorkspace is a fresh workspace: a .env naming db.txt, an other.env naming
// other.txt, two migrations, the first applied.
func dbkitWorkspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	for name, content := range map[string]string{
		".env":                         "DATABASE_URL=file:db.txt\n",
		"other.env":                    "DATABASE_URL=file:other.txt\n",
		"db.txt":                       "0001_init.sql\n",
		"db/migrations/0001_init.sql":  "-- migrate:up\n",
		"db/migrations/0002_users.sql": "-- migrate:up\ncreate table users;\n",
		// dbkit is adopted with nil (its effects declared nowhere, so every command is
		// destructive and asks): the sweep is about what each leaf can be given, so the
		// workspace allows every call (TestEffects* test the asking).
		".cmdbridge/config.yaml": "policy:\n  - {name: sweep, tool: '*', decision: allow}\n",
	} {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(ws, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(ws, name), []byte(content), 0o644))
	}
	return ws
}

// dbkitCases: every leaf of dbkit with the inputs its shape needs, and the argv dbkit
// itself is run with for the same effect.
var dbkitCases = []struct {
	tool, input string
	argv        []string
}{
	{"new", `{"args":["users"]}`, []string{"new", "users"}},                       // undeclared positional
	{"n", `{"args":["posts"]}`, []string{"n", "posts"}},                           // an alias spelling
	{"new", `{}`, []string{"new"}},                                                // the program's own error, exit 2
	{"create", `{}`, []string{"create"}},                                          // db.txt exists: exit 2
	{"create", `{"url":"file:u.txt"}`, []string{"--url", "file:u.txt", "create"}}, // a global flag
	{"drop", `{}`, []string{"drop"}},
	{"up", `{}`, []string{"up"}},
	{"up", `{"env_file":["other.env"]}`, []string{"--env-file", "other.env", "up"}}, // read by main's pre-parser
	{"migrate", `{"strict":true}`, []string{"migrate", "--strict"}},
	{"rollback", `{}`, []string{"rollback"}},
	{"down", `{"no_dump_schema":true}`, []string{"--no-dump-schema", "down"}}, // an alias, a global bool
	{"status", `{}`, []string{"status"}},
	{"status", `{"exit_code":true}`, []string{"status", "--exit-code"}},               // a pending migration: exit 3
	{"dump", `{"file":"out.sql"}`, []string{"dump", "out.sql"}},                       // a declared optional positional
	{"dump", `{"schema_file":"-x.sql"}`, []string{"--schema-file", "-x.sql", "dump"}}, // a value beginning with -
	{"load", `{"args":["db/migrations/0001_init.sql","db/migrations/0002_users.sql"]}`,
		[]string{"load", "db/migrations/0001_init.sql", "db/migrations/0002_users.sql"}}, // undeclared variadic
	{"load", `{}`, []string{"load"}},
	{"wait", `{}`, []string{"wait"}},
	{"wait", `{"url":"file:none.txt"}`, []string{"--url", "file:none.txt", "wait"}}, // os.Exit(1) in the action
}

// TestOutsideDBKitEveryLeafIsUsable sweeps dbkit, adopted in one line: every leaf is
// callable with the inputs its shape needs (undeclared positionals through args, alias
// spellings, global flags, --env-file reaching main's pre-parser), and each call gives
// what dbkit run directly gives: stdout, stderr, exit code and files. The leaves whose
// positionals are declared nowhere carry a warning in tools list, status and MCP.
func TestOutsideDBKitEveryLeafIsUsable(t *testing.T) {
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	dbkit := outsidetest.Build(t, "dbkit", outsidetest.DBKit(root, "nil")).Exe("dbkit")

	for _, tc := range dbkitCases {
		t.Run(tc.tool+tc.input, func(t *testing.T) {
			direct := dbkitWorkspace(t)
			want := runIn(t, direct, "", dbkit, tc.argv...)

			ws := dbkitWorkspace(t)
			r := runIn(t, ws, "", dbkit, "bridge", "--workspace", ws, "call", tc.tool, "--input", tc.input)
			var out callOutput
			require.NoError(t, json.Unmarshal([]byte(r.Stdout), &out), "%+v", r)
			assert.Equal(t, "subprocess", out.Metadata["lane"])
			var got run
			if want.ExitCode != 0 {
				require.False(t, out.Success, "dbkit itself failed: %+v", want)
				require.Equal(t, "COMMAND_FAILED", out.Error.Code, out.Error.Message)
				require.NoError(t, json.Unmarshal(out.Error.Details, &got))
			} else {
				require.True(t, out.Success, "%+v (dbkit itself: %+v)", out.Error, want)
				require.NoError(t, json.Unmarshal(out.Data, &got))
			}
			assert.Equal(t, want, got)
			assert.Equal(t, listing(t, direct), listing(t, ws), "the same files")
		})
	}

	t.Run("the pre-parser reads --env-file", func(t *testing.T) {
		ws := dbkitWorkspace(t)
		r := runIn(t, ws, "", dbkit, "bridge", "--workspace", ws, "call", "up", "--input", `{"env_file":["other.env"]}`)
		require.Equal(t, 0, r.ExitCode, "%+v", r)
		b, err := os.ReadFile(filepath.Join(ws, "other.txt"))
		require.NoError(t, err, "DATABASE_URL came from other.env")
		assert.Equal(t, "0001_init.sql\n0002_users.sql\n", string(b))
		b, err = os.ReadFile(filepath.Join(ws, "db.txt"))
		require.NoError(t, err)
		assert.Equal(t, "0001_init.sql\n", string(b), ".env's database is untouched")
	})

	t.Run("an args item beginning with - is refused", func(t *testing.T) {
		ws := dbkitWorkspace(t)
		before := listing(t, ws)
		r := runIn(t, ws, "", dbkit, "bridge", "--workspace", ws, "call", "new", "--input", `{"args":["--migrations-dir=/tmp"]}`)
		var out callOutput
		require.NoError(t, json.Unmarshal([]byte(r.Stdout), &out), "%+v", r)
		require.NotNil(t, out.Error)
		assert.Equal(t, "INVALID_INPUT", out.Error.Code)
		assert.Equal(t, before, listing(t, ws), "nothing ran")
	})

	t.Run("tools list and status warn", func(t *testing.T) {
		ws := dbkitWorkspace(t)
		r := runIn(t, ws, "", dbkit, "bridge", "--workspace", ws, "tools", "list", "--json")
		require.Equal(t, 0, r.ExitCode, "%+v", r)
		var rows []struct {
			Name     string   `json:"name"`
			Warnings []string `json:"warnings"`
		}
		require.NoError(t, json.Unmarshal([]byte(r.Stdout), &rows))
		warned := map[string][]string{}
		for _, row := range rows {
			warned[row.Name] = row.Warnings
		}
		for _, leaf := range dbkitLeaves {
			require.Contains(t, warned, leaf)
			// Each leaf also warns that its effects are undeclared (dbkit is adopted
			// with nil); the positional warning is the one this sweep is about.
			positional := slices.ContainsFunc(warned[leaf], func(w string) bool { return strings.Contains(w, undeclared) })
			assert.Equal(t, leaf != "dump", positional, "%s (dump declares [FILE]): %q", leaf, warned[leaf])
		}
		text := runIn(t, ws, "", dbkit, "bridge", "--workspace", ws, "tools", "list")
		assert.Contains(t, text.Stdout, "new (!)")
		assert.Contains(t, text.Stdout, "  load: "+undeclared)
		status := runIn(t, ws, "", dbkit, "bridge", "--workspace", ws, "status")
		require.Equal(t, 0, status.ExitCode, "%+v", status)
		assert.Contains(t, status.Stdout, undeclared)
	})

	t.Run("MCP tools carry the warnings", func(t *testing.T) {
		ws := dbkitWorkspace(t)
		tools := mcpToolsList(t, ws, dbkit, "bridge", "--workspace", ws, "mcp")
		for _, leaf := range dbkitLeaves {
			meta := tools[leaf]
			if leaf == "dump" {
				assert.NotContains(t, fmt.Sprint(meta["cmdbridge/warnings"]), undeclared, leaf)
				continue
			}
			assert.Contains(t, fmt.Sprint(meta["cmdbridge/warnings"]), undeclared, leaf)
		}
	})
}

// mcpToolsList runs an MCP stdio server, lists its tools and returns each tool's _meta
// by name.
func mcpToolsList(t *testing.T, dir, exe string, args ...string) map[string]map[string]any {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = in.Close(); _ = cmd.Wait() })
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sweep","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	} {
		_, err := in.Write([]byte(msg + "\n"))
		require.NoError(t, err)
	}
	lines := bufio.NewScanner(stdout)
	lines.Buffer(nil, 16<<20)
	for lines.Scan() {
		var resp struct {
			ID     int `json:"id"`
			Result struct {
				Tools []struct {
					Name string         `json:"name"`
					Meta map[string]any `json:"_meta"`
				} `json:"tools"`
			} `json:"result"`
		}
		if json.Unmarshal(lines.Bytes(), &resp) != nil || resp.ID != 2 {
			continue
		}
		out := map[string]map[string]any{}
		for _, tl := range resp.Result.Tools {
			out[strings.ReplaceAll(tl.Name, "_", ":")] = tl.Meta
		}
		return out
	}
	t.Fatalf("no tools/list answer: %v", lines.Err())
	return nil
}
