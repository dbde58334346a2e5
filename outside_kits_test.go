package cmdbridge_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/adopted"
	"github.com/cmdbridge/cmdbridge/internal/mcpclienttest"
	"github.com/cmdbridge/cmdbridge/internal/outsidetest"
)

// testdata/cobrakit (cobra) and testdata/v3kit (urfave/cli v3) are one notes program
// written with two frameworks: the same command line, files and output. kitWorkspace
// is a workspace for either; each is adopted with nil (its effects declared nowhere),
// so the workspace allows every call, as dbkit's does.
func kitWorkspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	for name, content := range map[string]string{
		".kit/notes.json":        `[{"id":1,"title":"first","notebook":"main","priority":1,"tags":["x"]},{"id":2,"title":"other","notebook":"work","priority":3,"tags":[]}]`,
		".cmdbridge/config.yaml": "policy:\n  - {name: sweep, tool: '*', decision: allow}\n",
	} {
		p := filepath.Join(ws, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	return ws
}

// kitCases call each served leaf through the bridge and run the same command line
// directly: the output, exit status and files must be the program's own.
var kitCases = []struct {
	tool, input, stdin string
	argv               []string
}{
	{"notes:add", `{"title":"hello","priority":2,"tag":["a","b"]}`, "", []string{"notes", "add", "--priority", "2", "-t", "a", "-t", "b", "hello"}},
	{"notes:add", `{"title":"in work","priority":1,"notebook":"work","verbose":true,"data_dir":"elsewhere"}`, "",
		[]string{"--data-dir", "elsewhere", "-v", "notes", "--notebook", "work", "add", "--priority", "1", "in work"}},
	// Refused by the schema, nothing runs: no priority; a positional that would read as
	// an option (Config.LeadingDash would allow it).
	{"notes:add", `{"title":"no priority"}`, "", nil},
	{"notes:add", `{"title":"--data-dir=/","priority":1}`, "", nil},
	{"notes:list", `{}`, "", []string{"notes", "list"}},
	{"notes:list", `{"json":true,"notebook":"work"}`, "", []string{"notes", "list", "--json", "--notebook", "work"}},
	{"notes:import", `{}`, "one\ntwo\n", []string{"notes", "import"}},
	{"notes:rm", `{"id":"2"}`, "", []string{"notes", "rm", "2"}},
	{"notes:rm", `{"id":"9"}`, "", []string{"notes", "rm", "9"}},
	{"wait", `{"fail":true}`, "", []string{"wait", "--fail"}},
}

// TestOutsideCobraKit drives a cobra program adopted with cobra's one line end to end:
// the tools it serves, every leaf called through the bridge against the program run
// directly, the MCP Inspector listing and calling its tools, and what the one line
// links.
func TestOutsideCobraKit(t *testing.T) {
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	m := outsidetest.Build(t, "cobrakit", outsidetest.CobraKit(root, "nil"))
	kit := m.Exe("cobrakit")

	t.Run("the served tools", func(t *testing.T) {
		ws := kitWorkspace(t)
		r := runIn(t, ws, "", kit, "bridge", "--workspace", ws, "tools", "list", "--json")
		require.Equal(t, 0, r.ExitCode, "%+v", r)
		var rows []struct {
			Name     string   `json:"name"`
			Warnings []string `json:"warnings"`
		}
		require.NoError(t, json.Unmarshal([]byte(r.Stdout), &rows))
		var names []string
		for _, row := range rows {
			names = append(names, row.Name)
			assert.True(t, slices.ContainsFunc(row.Warnings, func(w string) bool { return strings.Contains(w, "verbose") }),
				"%s: the count flag -v is served as a switch, with a warning: %q", row.Name, row.Warnings)
		}
		sort.Strings(names)
		assert.Equal(t, []string{"notes:add", "notes:import", "notes:list", "notes:rm", "wait"}, names,
			"debug (hidden), show (deprecated), help, completion and the bridge are not served")
	})

	t.Run("every command through the bridge", func(t *testing.T) { kitSweep(t, kit, nil) })

	t.Run("the MCP Inspector lists and calls the tools", func(t *testing.T) {
		ws := kitWorkspace(t)
		inspect := func(args ...string) string {
			t.Helper()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			// The Inspector starts the server with an environment of its own: the host's
			// path is given as an adopter's $PATH would.
			env := []string{"-e", adopted.HostEnv + "=" + os.Getenv(adopted.HostEnv)}
			cmd := mcpclienttest.Inspector(ctx, t, slices.Concat(env, args, []string{"--", kit, "bridge", "--workspace", ws, "mcp"})...)
			cmd.Dir = ws
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			require.NoError(t, err, "inspector %s\nstderr:\n%s", strings.Join(args, " "), stderr.String())
			return string(out)
		}
		var list struct {
			Tools []struct {
				Name        string         `json:"name"`
				InputSchema map[string]any `json:"inputSchema"`
			} `json:"tools"`
		}
		out := inspect("--method", "tools/list")
		require.NoError(t, json.Unmarshal([]byte(out), &list), out)
		schemas := map[string]map[string]any{}
		for _, tl := range list.Tools {
			schemas[tl.Name] = tl.InputSchema
		}
		require.Contains(t, schemas, "notes_add", out)
		assert.ElementsMatch(t, []any{"priority", "title"}, schemas["notes_add"]["required"])

		out = inspect("--method", "tools/call", "--tool-name", "notes_add", "--tool-arg", "title=from MCP", "--tool-arg", "priority=4")
		var res struct {
			IsError bool `json:"isError"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &res), out)
		require.False(t, res.IsError, out)
		b, err := os.ReadFile(filepath.Join(ws, ".kit", "notes.json"))
		require.NoError(t, err)
		assert.Contains(t, string(b), `"title":"from MCP","notebook":"main","priority":4`)
	})

	t.Run("the one line links neither urfave/cli nor the serving stack", func(t *testing.T) {
		ds := deps(t, m.Dir, ".")
		require.Contains(t, ds, "github.com/cmdbridge/cmdbridge/cobrabridge")
		for _, banned := range slices.Concat(servingStack, developerTooling, []string{"github.com/urfave/cli/v2"}) {
			assert.NotContains(t, ds, banned)
		}
	})
}

// kitSweep calls each of kitCases through kit's bridge and runs the same
// command line directly: the output, exit status and files must be the program's own.
// inProcess names the tools the line runs in the program's process (the adapter lane);
// the others run the program (the subprocess lane).
func kitSweep(t *testing.T, kit string, inProcess map[string]bool) {
	for _, tc := range kitCases {
		t.Run(tc.tool+tc.input, func(t *testing.T) {
			ws := kitWorkspace(t)
			before := listing(t, ws)
			args := []string{"bridge", "--workspace", ws, "call", tc.tool, "--input", tc.input}
			if tc.stdin != "" {
				args = append(args, "--stdin", "-")
			}
			r := runIn(t, ws, tc.stdin, kit, args...)
			var out callOutput
			require.NoError(t, json.Unmarshal([]byte(r.Stdout), &out), "%+v", r)
			if tc.argv == nil {
				require.NotNil(t, out.Error, "%+v", r)
				assert.Equal(t, "INVALID_INPUT", out.Error.Code)
				assert.Equal(t, before, listing(t, ws), "nothing ran")
				return
			}
			lane := "subprocess"
			if inProcess[tc.tool] {
				lane = "adapter"
			}
			assert.Equal(t, lane, out.Metadata["lane"])
			direct := kitWorkspace(t)
			want := runIn(t, direct, tc.stdin, kit, tc.argv...)
			var got run
			if want.ExitCode != 0 {
				require.False(t, out.Success, "kit itself failed: %+v", want)
				require.Equal(t, "COMMAND_FAILED", out.Error.Code, out.Error.Message)
				require.NoError(t, json.Unmarshal(out.Error.Details, &got))
			} else {
				require.True(t, out.Success, "%+v (kit itself: %+v)", out.Error, want)
				if json.Valid([]byte(want.Stdout)) {
					// One JSON document on stdout: the data is that document.
					assert.JSONEq(t, want.Stdout, string(out.Data))
					assert.Equal(t, want.Stdout, out.Metadata["stdout"])
					got = want
				} else {
					require.NoError(t, json.Unmarshal(out.Data, &got))
				}
			}
			assert.Equal(t, want, got)
			assert.Equal(t, listing(t, direct), listing(t, ws), "the same files")
		})
	}

}

// TestOutsideCobraKitInProcess: cobrakit adopted with cobra's in-process line, the notes
// commands vouched for: they run in the program's process, each on a tree of its own
// (flags set by one call must not reach the next: the cases run one after the other in
// one server's life in the MCP step below), and answer as the program run directly.
func TestOutsideCobraKitInProcess(t *testing.T) {
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	m := outsidetest.Build(t, "cobrakit-host", outsidetest.CobraKitHost(root, `&host.Config{InProcess: []string{"notes:*"}}`))
	kit := m.Exe("cobrakit")
	inProcess := map[string]bool{"notes:add": true, "notes:list": true, "notes:import": true, "notes:rm": true}
	kitSweep(t, kit, inProcess)

	kitBatchStartsFromDefaults(t, kit)
}

// TestOutsideV3Kit drives an urfave/cli v3 program adopted with v3's one line end to end:
// the tools it serves, every command through the bridge against the same command line
// run directly, and what the one line links.
func TestOutsideV3Kit(t *testing.T) {
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	m := outsidetest.Build(t, "v3kit", outsidetest.V3Kit(root, "nil"))
	kit := m.Exe("v3kit")

	t.Run("the served tools", func(t *testing.T) {
		ws := kitWorkspace(t)
		r := runIn(t, ws, "", kit, "bridge", "--workspace", ws, "tools", "list", "--json")
		require.Equal(t, 0, r.ExitCode, "%+v", r)
		var rows []struct {
			Name string `json:"name"`
		}
		require.NoError(t, json.Unmarshal([]byte(r.Stdout), &rows))
		var names []string
		for _, row := range rows {
			names = append(names, row.Name)
		}
		sort.Strings(names)
		assert.Equal(t, []string{"notes:add", "notes:import", "notes:list", "notes:rm", "wait"}, names,
			"debug (hidden), help and the bridge are not served")
	})
	t.Run("every command through the bridge", func(t *testing.T) { kitSweep(t, kit, nil) })
	t.Run("the one line links neither urfave/cli v2 nor the serving stack", func(t *testing.T) {
		ds := deps(t, m.Dir, ".")
		require.Contains(t, ds, "github.com/cmdbridge/cmdbridge/v3bridge")
		for _, banned := range slices.Concat(servingStack, developerTooling, []string{"github.com/urfave/cli/v2", "github.com/spf13/cobra"}) {
			assert.NotContains(t, ds, banned)
		}
	})
}

// TestOutsideV3KitInProcess: v3kit adopted with v3's in-process line, the notes commands
// vouched for, its main's ending given as Prepare: they run in the program's process and
// answer as the program run directly (its errors, and wait's os.Exit on the subprocess
// lane, included), and a batch in one process starts every call from the defaults.
func TestOutsideV3KitInProcess(t *testing.T) {
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	m := outsidetest.Build(t, "v3kit-host", outsidetest.V3KitHost(root,
		`&host.Config{InProcess: []string{"notes:*"}, Prepare: func([]string) func(error) int { return finish }}`))
	kit := m.Exe("v3kit")
	kitSweep(t, kit, map[string]bool{"notes:add": true, "notes:list": true, "notes:import": true, "notes:rm": true})
	kitBatchStartsFromDefaults(t, kit)
}

// kitBatchStartsFromDefaults runs a batch of calls in one process of kit's bridge: the
// second call must get neither the first one's tag nor its notebook.
func kitBatchStartsFromDefaults(t *testing.T, kit string) {
	t.Run("one process, many calls: every call starts from the defaults", func(t *testing.T) {
		ws := kitWorkspace(t)
		calls := filepath.Join(t.TempDir(), "calls.json")
		require.NoError(t, os.WriteFile(calls, []byte(`[{"tool":"notes:add","input":{"title":"a","priority":1,"tag":["x"],"notebook":"work"}},`+
			`{"tool":"notes:add","input":{"title":"b","priority":2}}]`), 0o644))
		r := runIn(t, ws, "", kit, "bridge", "--workspace", ws, "batch", calls)
		require.Equal(t, 0, r.ExitCode, "%+v", r)
		b, err := os.ReadFile(filepath.Join(ws, ".kit", "notes.json"))
		require.NoError(t, err)
		var notes []struct {
			ID       int      `json:"id"`
			Notebook string   `json:"notebook"`
			Tags     []string `json:"tags"`
		}
		require.NoError(t, json.Unmarshal(b, &notes))
		require.Len(t, notes, 4)
		assert.Equal(t, "main", notes[3].Notebook, "the second call did not get the first one's notebook")
		assert.Empty(t, notes[3].Tags, "nor its tag")
	})
}
