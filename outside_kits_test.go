package cmdbridge_test

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
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

// kitLeaves are the tools either kit serves.
var kitLeaves = []string{"notes:add", "notes:import", "notes:list", "notes:rm", "wait"}

// kitTools are the tools kit's bridge lists, with their warnings.
func kitTools(t *testing.T, kit string) map[string][]string {
	t.Helper()
	ws := kitWorkspace(t)
	r := runIn(t, ws, "", kit, "bridge", "--workspace", ws, "tools", "list", "--json")
	require.Equal(t, 0, r.ExitCode, "%+v", r)
	var rows []struct {
		Name     string   `json:"name"`
		Warnings []string `json:"warnings"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.Stdout), &rows))
	tools := map[string][]string{}
	for _, row := range rows {
		tools[row.Name] = row.Warnings
	}
	return tools
}

// kitCases call each served leaf through the bridge and run the same command line
// directly: the output, exit status and files must be the program's own.
var kitCases = []struct {
	tool, input, stdin string
	argv               []string
	// required: the refusal needs what the program declares required, which its help
	// does not say (a wrapped program runs and fails instead).
	required bool
}{
	{"notes:add", `{"title":"hello","priority":2,"tag":["a","b"]}`, "", []string{"notes", "add", "--priority", "2", "-t", "a", "-t", "b", "hello"}, false},
	{"notes:add", `{"title":"in work","priority":1,"notebook":"work","verbose":true,"data_dir":"elsewhere"}`, "",
		[]string{"--data-dir", "elsewhere", "-v", "notes", "--notebook", "work", "add", "--priority", "1", "in work"}, false},
	// Refused by the schema, nothing runs: no priority; a positional that would read as
	// an option (Config.LeadingDash would allow it).
	{"notes:add", `{"title":"no priority"}`, "", nil, true},
	{"notes:add", `{"title":"--data-dir=/","priority":1}`, "", nil, false},
	{"notes:list", `{}`, "", []string{"notes", "list"}, false},
	{"notes:list", `{"json":true,"notebook":"work"}`, "", []string{"notes", "list", "--json", "--notebook", "work"}, false},
	{"notes:import", `{}`, "one\ntwo\n", []string{"notes", "import"}, false},
	{"notes:rm", `{"id":"2"}`, "", []string{"notes", "rm", "2"}, false},
	{"notes:rm", `{"id":"9"}`, "", []string{"notes", "rm", "9"}, false},
	{"wait", `{"fail":true}`, "", []string{"wait", "--fail"}, false},
}

// TestOutsideCobraKit drives a cobra program adopted with cobra's one line end to end:
// the tools it serves, every leaf called through the bridge against the program run
// directly, the MCP Inspector listing and calling its tools, and what the one line
// links.
func TestOutsideCobraKit(t *testing.T) {
	t.Parallel() // each builds or shares its own programs and workspaces
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	m := outsidetest.Build(t, "cobrakit", outsidetest.Kit(root, "cobrakit", "root.AddCommand(cobrabridge.Command(nil))", false))
	kit := m.Exe("cobrakit")

	t.Run("the served tools", func(t *testing.T) {
		tools := kitTools(t, kit)
		assert.Equal(t, kitLeaves, slices.Sorted(maps.Keys(tools)),
			"debug (hidden), show (deprecated), help, completion and the bridge are not served")
		for name, warnings := range tools {
			assert.True(t, slices.ContainsFunc(warnings, func(w string) bool { return strings.Contains(w, "verbose") }),
				"%s: the count flag -v is served as a switch, with a warning: %q", name, warnings)
		}
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
	kitSweepVia(t, kit, []string{kit, "bridge"}, inProcess)
}

// kitSweepVia is kitSweep with the bridge's command line begun by via (the program and
// its bridge, or the host's wrap of the program).
func kitSweepVia(t *testing.T, kit string, via []string, inProcess map[string]bool) {
	wrapped := len(via) > 1 && via[1] == "wrap"
	for _, tc := range kitCases {
		if wrapped && tc.required {
			continue
		}
		t.Run(tc.tool+tc.input, func(t *testing.T) {
			ws := kitWorkspace(t)
			before := listing(t, ws)
			args := append(slices.Clone(via[1:]), "--workspace", ws, "call", tc.tool, "--input", tc.input)
			if tc.stdin != "" {
				args = append(args, "--stdin", "-")
			}
			r := runIn(t, ws, tc.stdin, via[0], args...)
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
	t.Parallel() // each builds or shares its own programs and workspaces
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	m := outsidetest.Build(t, "cobrakit-host", outsidetest.Kit(root, "cobrakit",
		`root.AddCommand(cobrahost.Command(newRoot, &host.Config{InProcess: []string{"notes:*"}}))`, false))
	kit := m.Exe("cobrakit")
	inProcess := map[string]bool{"notes:add": true, "notes:list": true, "notes:import": true, "notes:rm": true}
	kitSweep(t, kit, inProcess)

	kitBatchStartsFromDefaults(t, kit)
}

// TestOutsideV3Kit drives an urfave/cli v3 program adopted with v3's one line end to end:
// the tools it serves, every command through the bridge against the same command line
// run directly, and what the one line links.
func TestOutsideV3Kit(t *testing.T) {
	t.Parallel() // each builds or shares its own programs and workspaces
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	m := outsidetest.Build(t, "v3kit", outsidetest.Kit(root, "v3kit", "cmd.Commands = append(cmd.Commands, v3bridge.Command(nil))", false))
	kit := m.Exe("v3kit")

	t.Run("the served tools", func(t *testing.T) {
		assert.Equal(t, kitLeaves, slices.Sorted(maps.Keys(kitTools(t, kit))), "debug (hidden), help and the bridge are not served")
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
	t.Parallel() // each builds or shares its own programs and workspaces
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	m := outsidetest.Build(t, "v3kit-host", outsidetest.Kit(root, "v3kit",
		`cmd.Commands = append(cmd.Commands, v3host.Command(newRoot, &host.Config{InProcess: []string{"notes:*"}, Prepare: func([]string) func(error) int { return finish }}))`, false))
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

// TestOutsideKitsMigrateACommand: cobrakit's and v3kit's maintainers migrate notes:list
// as they would gizmo's (docs/adopt.md, section 7), on their framework's in-process line
// in a build with the developer commands: scaffold it, serve the registry it declares,
// and prove with parity, on the subprocess, adapter (the program's tree in the process)
// and native lanes, that a wrong handler fails and a right one passes; then serve it
// natively.
func TestOutsideKitsMigrateACommand(t *testing.T) {
	t.Parallel() // each builds or shares its own programs and workspaces
	t.Run("cobra", func(t *testing.T) {
		t.Parallel()
		kitMigratesACommand(t, "cobrakit",
			`root.AddCommand(cobrahost.Command(newRoot, &host.Config{InProcess: []string{"notes:*"}, Subcommands: devcli.Commands()}))`)
	})
	t.Run("urfave/cli v3", func(t *testing.T) {
		t.Parallel()
		kitMigratesACommand(t, "v3kit",
			`cmd.Commands = append(cmd.Commands, v3host.Command(newRoot, &host.Config{InProcess: []string{"notes:*"}, Prepare: func([]string) func(error) int { return finish }, Subcommands: devcli.Commands()}))`)
	})
}

// kitMigratesACommand walks the migration of notes:list in testdata/<name>, adopted by
// line, whose Config adds the developer commands (Subcommands: devcli.Commands()).
func kitMigratesACommand(t *testing.T, name, line string) {
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	built := outsidetest.Build(t, name+"-dev", outsidetest.Kit(root, name, line, false))
	mod := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.CopyFS(mod, os.DirFS(built.Dir)))
	write := func(rel, text string) {
		t.Helper()
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(mod, rel)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(mod, rel), []byte(text), 0o644))
	}
	bin := filepath.Join(t.TempDir(), "bin")
	kit := filepath.Join(bin, name)
	rebuild := func() {
		t.Helper()
		cmd := exec.Command("go", "build", "-ldflags=-w", "-o", bin+string(filepath.Separator), ".")
		cmd.Dir = mod
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	rebuild()
	r := runIn(t, mod, "", kit, "bridge", "scaffold", "notes:list")
	require.Equal(t, 0, r.ExitCode, "%+v", r)
	assert.Contains(t, r.Stderr, `set host.Config{Native: nativetools.Registry}`)
	src, err := os.ReadFile(filepath.Join(mod, "nativetools", "notes", "notes_list.go"))
	require.NoError(t, err)
	stub := `	return tool.Fail(tool.CodeNotImplemented, "notes:list: the native handler is not written yet")`
	require.Contains(t, string(src), stub)
	require.Contains(t, string(src), "`json:\"data_dir,omitempty\"", "the root's persistent flag is an input of the leaf")

	// The maintainer's edits: the line serves the registry, the parity script gets
	// notes, and the stub calls a handler of theirs, which joins tags with sep.
	main, err := os.ReadFile(filepath.Join(mod, "main.go"))
	require.NoError(t, err)
	edited := strings.Replace(string(main), `&host.Config{InProcess:`, `&host.Config{Native: nativetools.Registry, InProcess:`, 1)
	edited = strings.Replace(edited, "import (\n", "import (\n\t\"example.com/"+name+"/nativetools\"\n\t_ \"example.com/"+name+"/nativetools/all\"\n", 1)
	write("main.go", edited)
	write("testdata/script/parity/notes_list.txtar", `# notes:list on every lane, with notes in two notebooks.
parity notes:list '{}'
parity notes:list '{"notebook":"work"}'
parity notes:list '{"json":true}'
-- .kit/notes.json --
[{"id":1,"title":"first","notebook":"main","priority":1,"tags":["x","y"]},{"id":2,"title":"other","notebook":"work","priority":3,"tags":[]}]
`)
	write("nativetools/notes/list.go", kitListHandler)
	handler := func(sep string) {
		t.Helper()
		write("nativetools/notes/notes_list.go", strings.Replace(string(src), stub, "\treturn listNotes(env, in, "+strconv.Quote(sep)+")", 1))
		rebuild()
	}

	handler(" ")
	r = runIn(t, mod, "", kit, "bridge", "parity", "notes:list")
	require.Equal(t, 1, r.ExitCode, "a wrong handler must fail parity: %+v", r)
	assert.Contains(t, r.Stdout, "FAIL  notes:list")
	assert.Contains(t, r.Stderr, `got:  "1\tfirst\tx y\n"`, "and says where")

	handler(",")
	r = runIn(t, mod, "", kit, "bridge", "parity", "notes:list")
	require.Equal(t, 0, r.ExitCode, "the right handler must pass parity on every lane: %+v", r)
	assert.Contains(t, r.Stdout, "PASS  notes:list subprocess,adapter,native")

	// Routed native in the workspace's configuration, the handler serves the tool.
	ws := kitWorkspace(t)
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".cmdbridge", "config.yaml"), []byte("routes:\n  notes:list: native\npolicy:\n  - {name: all, tool: '*', decision: allow}\n"), 0o644))
	r = runIn(t, ws, "", kit, "bridge", "--workspace", ws, "call", "notes:list")
	var call callOutput
	require.NoError(t, json.Unmarshal([]byte(r.Stdout), &call), "%+v", r)
	assert.Equal(t, "native", call.Metadata["lane"])
	var got run
	require.NoError(t, json.Unmarshal(call.Data, &got))
	assert.Equal(t, runIn(t, kitWorkspace(t), "", kit, "notes", "list"), got)
}

// kitListHandler is the maintainer's notes:list: what kit's list prints, its tags joined
// by sep, and the data directory its hook (PersistentPreRunE, Before) creates.
const kitListHandler = `package notes

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

type note struct {
	ID       int      ` + "`json:\"id\"`" + `
	Title    string   ` + "`json:\"title\"`" + `
	Notebook string   ` + "`json:\"notebook\"`" + `
	Priority int      ` + "`json:\"priority\"`" + `
	Tags     []string ` + "`json:\"tags\"`" + `
}

func listNotes(env *tool.Env, in ListInput, sep string) tool.Output {
	dir, notebook := in.DataDir, in.Notebook // absent: kit's defaults
	if dir == "" {
		dir = ".kit"
	}
	if notebook == "" {
		notebook = "main"
	}
	p := native.Plain{Name: "notes:list"}
	dir = filepath.Join(env.Dir, dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(&p.Stderr, "Error:", err)
		return p.Exit(1)
	}
	var all []note
	if b, err := os.ReadFile(filepath.Join(dir, "notes.json")); err == nil {
		if err := json.Unmarshal(b, &all); err != nil {
			fmt.Fprintln(&p.Stderr, "Error:", err)
			return p.Exit(1)
		}
	}
	var mine []note
	for _, n := range all {
		if n.Notebook == notebook {
			mine = append(mine, n)
		}
	}
	if in.JSON {
		_ = json.NewEncoder(&p.Stdout).Encode(mine)
		return p.Exit(0)
	}
	for _, n := range mine {
		fmt.Fprintf(&p.Stdout, "%d\t%s\t%s\n", n.ID, n.Title, strings.Join(n.Tags, sep))
	}
	return p.Exit(0)
}
`

// TestOutsideCobraKitWrapped: cobrakit as its authors ship it, with no line at all,
// served by `cmdbridge wrap` from its help pages (pflag's usage lines carry the types):
// the tools, and every command through the host against the same command line run
// directly.
func TestOutsideCobraKitWrapped(t *testing.T) {
	t.Parallel() // each builds or shares its own programs and workspaces
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	kit := outsidetest.Build(t, "cobrakit-plain", outsidetest.Spec{Root: root, Src: "testdata/cobrakit"}).Exe("cobrakit")
	host := outsidetest.Host(t, root)
	ws := kitWorkspace(t)
	r := runIn(t, ws, "", host, "wrap", kit, "--workspace", ws, "tools", "list", "--json")
	require.Equal(t, 0, r.ExitCode, "%+v", r)
	var rows []struct {
		Name string `json:"name"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.Stdout), &rows))
	var names []string
	for _, row := range rows {
		names = append(names, row.Name)
	}
	assert.ElementsMatch(t, kitLeaves, names, "help and completion are not served")
	kitSweepVia(t, kit, []string{host, "wrap", kit}, nil)
}

// TestOutsideKitsServed: both kits on both their lines, served as hosts run them: the
// official TypeScript MCP client lists every tool over stdio (each schema through the
// SDK's validation), and over HTTP with a token a call answers, wait's os.Exit comes back
// as COMMAND_FAILED, and the server keeps answering.
func TestOutsideKitsServed(t *testing.T) {
	t.Parallel() // each builds or shares its own programs and workspaces
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	notes := `&host.Config{InProcess: []string{"notes:*"}}`
	lines := []struct {
		name, key, kit, line string // key: the build the other kit tests share
	}{
		{"cobra one line", "cobrakit", "cobrakit", "root.AddCommand(cobrabridge.Command(nil))"},
		{"cobra in-process line", "cobrakit-host", "cobrakit", "root.AddCommand(cobrahost.Command(newRoot, " + notes + "))"},
		{"v3 one line", "v3kit", "v3kit", "cmd.Commands = append(cmd.Commands, v3bridge.Command(nil))"},
		{"v3 in-process line", "v3kit-host", "v3kit", "cmd.Commands = append(cmd.Commands, v3host.Command(newRoot, &host.Config{InProcess: []string{\"notes:*\"}, Prepare: func([]string) func(error) int { return finish }}))"},
	}
	node, nodeErr := exec.LookPath("node")
	client := filepath.Join(root, "testdata", "mcpclient")
	for _, l := range lines {
		t.Run(l.name, func(t *testing.T) {
			kit := outsidetest.Build(t, l.key, outsidetest.Kit(root, l.kit, l.line, false)).Exe(l.kit)
			if nodeErr != nil {
				t.Skip("host capability missing: Node.js (node on PATH) to run the official TypeScript MCP client")
			}
			ws := kitWorkspace(t)
			r := runIn(t, client, "", node, "conformance.mjs", "stdio", "corpus", strconv.Itoa(len(kitLeaves)), kit, "bridge", "--workspace", ws, "mcp")
			require.Equal(t, 0, r.ExitCode, "%+v", r)

			e := entry{name: l.name, argv: func(outside) []string { return []string{kit, "bridge"} }}
			mint := e.run(t, outside{}, ws, "", "--workspace", ws, "token", "mint", "--subject", "kit", "--tools", "*", "--write", ".")
			require.Equal(t, 0, mint.ExitCode, "%+v", mint)
			token := strings.TrimSpace(mint.Stdout)
			url, stop := serve(t, e, outside{}, ws)
			defer stop()
			post := func(tool, input string) callOutput {
				t.Helper()
				_, out := postTool(t, url, token, tool, input)
				return out
			}
			out := post("wait", `{"fail":true}`)
			require.NotNil(t, out.Error)
			assert.Equal(t, "COMMAND_FAILED", out.Error.Code)
			assert.Contains(t, out.Error.Message, "exited with code 3")
			out = post("notes:add", `{"title":"over http","priority":2}`)
			require.True(t, out.Success, "%+v", out.Error)
			out = post("notes:list", `{"json":true}`)
			require.True(t, out.Success, "%+v", out.Error)
			assert.Contains(t, string(out.Data), `"title":"over http"`)
		})
	}
}

// TestOutsideKitsBridgecheck: bridgecheck, run in each kit's module as its maintainers
// would, reads cobra's Run and v3's Action fields as it reads v2's actions: it reports
// wait's os.Exit in both, accepts cobrakit's main (the root built, Execute, exit 1 on
// an error: what cobra's in-process line does by default), and reports v3kit's main,
// whose finish chooses what is printed (the in-process line needs it as Prepare).
func TestOutsideKitsBridgecheck(t *testing.T) {
	t.Parallel() // each builds or shares its own programs and workspaces
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	bc := outsidetest.Bridgecheck(t, root)
	for _, tc := range []struct {
		kit, instead string // instead: the advice in the framework's terms
		mainLogic    bool
	}{{"cobrakit", "return an error from RunE", false}, {"v3kit", "v3host ends the in-process run", true}} {
		t.Run(tc.kit, func(t *testing.T) {
			r := runIn(t, filepath.Join(root, "testdata", tc.kit), "", bc, "./...")
			assert.Equal(t, 3, r.ExitCode, "findings: %+v", r)
			out := r.Stderr + r.Stdout
			assert.Contains(t, out, "[os-exit] os.Exit")
			assert.Contains(t, out, tc.instead)
			assert.Equal(t, tc.mainLogic, strings.Contains(out, "[main-logic]"), out)
		})
	}
}

// TestOutsideCobraKitTiers: the tier table bridgecheck writes in cobrakit's module,
// embedded and given to cobra's in-process line, judges the leaves by the package their
// RunE lives in: wait (whose package calls os.Exit) never runs in-process, while the notes
// commands keep the maintainer's own verdict (InProcess).
func TestOutsideCobraKitTiers(t *testing.T) {
	t.Parallel() // each builds or shares its own programs and workspaces
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	bc := outsidetest.Bridgecheck(t, root)
	table := filepath.Join(t.TempDir(), "tiers.json")
	r := runIn(t, filepath.Join(root, "testdata", "cobrakit"), "", bc, "-tiers", table, "./...")
	require.Equal(t, 0, r.ExitCode, "%+v", r)
	tiers, err := os.ReadFile(table)
	require.NoError(t, err)
	// status reads the tiers: the line adds it (devcli.Commands carries it).
	line := `root.AddCommand(cobrahost.Command(newRoot, &host.Config{InProcess: []string{"notes:*"}, Tiers: tiers, Subcommands: devcli.Commands()}))`
	spec := outsidetest.Kit(root, "cobrakit", line, false)
	adopt := spec.Edit
	spec.ID += " tiers"
	spec.Edit = func(dir string) error {
		if err := adopt(dir); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "tiers.json"), tiers, 0o644); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, "tiers.go"), []byte("package main\n\nimport _ \"embed\"\n\n// tiers is bridgecheck's verdict on this module.\n//\n//go:embed tiers.json\nvar tiers []byte\n"), 0o644)
	}
	kit := outsidetest.Build(t, "cobrakit-tiers", spec).Exe("cobrakit")
	ws := kitWorkspace(t)
	st := runIn(t, ws, "", kit, "bridge", "--workspace", ws, "status", "--json")
	require.Equal(t, 0, st.ExitCode, "%+v", st)
	var status struct {
		Tools []struct {
			Name string `json:"name"`
			Tier string `json:"tier"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal([]byte(st.Stdout), &status))
	tierOf := map[string]string{}
	for _, tl := range status.Tools {
		tierOf[tl.Name] = tl.Tier
	}
	assert.Equal(t, map[string]string{"notes:add": "in-process", "notes:import": "in-process", "notes:list": "in-process",
		"notes:rm": "in-process", "wait": "subprocess"}, tierOf)
}
