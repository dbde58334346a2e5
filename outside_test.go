package cmdbridge_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/outsidetest"
	"github.com/cmdbridge/cmdbridge/internal/providerrules"
	"github.com/cmdbridge/cmdbridge/tool"
)

// The outside module (testdata/outside) is gizmo, a small notes CLI written for this test
// the way programs are written without cmdbridge in mind: a command tree with inherited
// flags, plain text output, one command printing JSON, stdin read from "-", an --output
// file, a slice flag and a MultiStringFlag, a variadic positional, a
// cli.ShowCommandHelpAndExit and an os.Exit inside actions. It adopts cmdbridge through
// both entry points:
//
//   - cmd/gizmo: gizmo's own main plus one line (cmdbridge.Command, whose Config lets text
//     upper's words begin with "-"): `gizmo bridge …`;
//   - cmd/gizmo-tools: a standalone main of a few lines (host.Main(app.New, …)).
//
// The tests build both against this working tree (a replace directive) and drive them as
// a user would.

// outside is the built outside module: its directory and its binaries.
type outside struct {
	dir   string // the module copy
	bin   string // holds gizmo and gizmo-tools
	gizmo string
	tools string
}

// buildOutside builds testdata/outside adopted (its cmdbridge requirement pointed at this
// working tree and tidied: the toolkit's dependencies may have moved since its go.sum was
// written), both binaries into one directory, so gizmo-tools finds gizmo next to it. It
// builds once per run (outsidetest.Build).
func buildOutside(t testing.TB) outside {
	t.Helper()
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	m := outsidetest.Build(t, "gizmo", outsidetest.Spec{Root: root, Src: "testdata/outside", Adopt: true, Packages: []string{"./cmd/..."}})
	return outside{dir: m.Dir, bin: m.Bin, gizmo: m.Exe("gizmo"), tools: m.Exe("gizmo-tools")}
}

// seedBin gives a copy of the outside module, mod, a bin/ holding copies of o's programs
// and returns its path. `go build -o bin/ ./cmd/...` with o's flags then links only the
// programs whose sources the test changed: go build leaves a target alone when its build
// ID says it is up to date, as on a maintainer's machine after the first build.
func seedBin(t *testing.T, o outside, mod string) string {
	t.Helper()
	bin := filepath.Join(mod, "bin")
	require.NoError(t, os.MkdirAll(bin, 0o755))
	entries, err := os.ReadDir(o.bin)
	require.NoError(t, err)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(o.bin, e.Name()))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(bin, e.Name()), b, 0o755))
	}
	return bin
}

// TestMain gives the outside modules' builds a directory that ends with the test binary.
func TestMain(m *testing.M) { os.Exit(outsidetest.M(m).Run()) }

// run is one process's result.
type run struct {
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	ExitCode int    `json:"exit_code"`
}

// runIn runs exe with args in dir, with stdin.
func runIn(t *testing.T, dir, stdin, exe string, args ...string) run {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err, "%s %s", exe, strings.Join(args, " "))
	}
	return run{out.String(), errb.String(), code}
}

// entry is one way gizmo's tools are served: the argv words before the bridge's own.
type entry struct {
	name string
	argv func(o outside) []string
	// inProcess: the adapter lane runs these tools in the process (gizmo-tools' own
	// verdict); every other call asked for on the adapter lane runs as a subprocess.
	inProcess map[string]bool
}

var entries = []entry{
	{name: "one line", argv: func(o outside) []string { return []string{o.gizmo, "bridge"} }},
	{name: "standalone main", argv: func(o outside) []string { return []string{o.tools} },
		inProcess: map[string]bool{"notes:list": true, "notes:show": true, "notes:export": true, "notes:rm": true, "text:upper": true, "version": true}},
}

func (e entry) run(t *testing.T, o outside, dir, stdin string, args ...string) run {
	t.Helper()
	argv := append(e.argv(o), args...)
	return runIn(t, dir, stdin, argv[0], argv[1:]...)
}

// seeded is a fresh data directory with two notes, written by gizmo itself.
func seeded(t *testing.T, o outside) string {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"notes", "add", "--tag=work", "--body=first line", "alpha"},
		{"notes", "--notebook=misc", "add", "--body=elsewhere", "beta"},
		{"notes", "add", "--body=second", "gamma"},
	} {
		r := runIn(t, dir, "", o.gizmo, args...)
		require.Equal(t, 0, r.ExitCode, "%+v", r)
	}
	return dir
}

// TestOutsideToolsHaveSchemas: every leaf of gizmo's tree is a tool named by its path,
// with its own and inherited flags and its positionals in the schema, through both entry
// points; the bridge subcommand itself is no tool.
func TestOutsideToolsHaveSchemas(t *testing.T) {
	o := buildOutside(t)
	want := []string{"notes:add", "notes:export", "notes:list", "notes:rm", "notes:show", "text:count", "text:upper", "version"}
	for _, e := range entries {
		t.Run(e.name, func(t *testing.T) {
			dir := t.TempDir()
			r := e.run(t, o, dir, "", "tools", "list", "--json")
			require.Equal(t, 0, r.ExitCode, "%+v", r)
			var list []struct {
				Name     string   `json:"name"`
				Warnings []string `json:"warnings"`
			}
			require.NoError(t, json.Unmarshal([]byte(r.Stdout), &list), r.Stdout)
			var names []string
			for _, tl := range list {
				names = append(names, tl.Name)
			}
			assert.Equal(t, want, names)
			for _, tl := range list {
				switch tl.Name {
				case "notes:list", "notes:export", "version": // no ArgsUsage: args, with a warning
					require.Len(t, tl.Warnings, 1, tl.Name)
					assert.Contains(t, tl.Warnings[0], undeclared, tl.Name)
				default:
					assert.Empty(t, tl.Warnings, tl.Name)
				}
			}

			schema := func(name string) map[string]any {
				r := e.run(t, o, dir, "", "tools", "schema", name)
				require.Equal(t, 0, r.ExitCode, "%+v", r)
				var s map[string]any
				require.NoError(t, json.Unmarshal([]byte(r.Stdout), &s))
				return s
			}
			add := schema("notes:add")
			props := add["properties"].(map[string]any)
			for _, p := range []string{"title", "tag", "label", "body", "notebook", "data_dir"} {
				assert.Contains(t, props, p, "notes:add: own, parent and app flags and the TITLE positional")
			}
			assert.Equal(t, "array", props["tag"].(map[string]any)["type"], "a slice flag")
			assert.Equal(t, "array", props["label"].(map[string]any)["type"], "a MultiStringFlag")
			assert.Contains(t, add["required"], "title")
			assert.NotContains(t, fmt.Sprint(props["label"]), "`", "urfave's backtick placeholders are stripped")
			upper := schema("text:upper")["properties"].(map[string]any)
			require.Contains(t, upper, "word")
			assert.Equal(t, "array", upper["word"].(map[string]any)["type"], "WORD [WORD...] is variadic")
		})
	}
}

// callCase is one call: the tool input, the argv gizmo itself is run with, and stdin.
type callCase struct {
	tool, input string
	argv        []string
	stdin       string
	// output names a file (in the data directory) the command writes.
	output string
	// approve: the tool is destructive, so the call is interactive and approved.
	approve bool
}

var callCases = []callCase{
	{tool: "notes:list", input: `{}`, argv: []string{"notes", "list"}},
	{tool: "notes:list", input: `{"notebook":"misc"}`, argv: []string{"notes", "--notebook", "misc", "list"}},
	{tool: "notes:show", input: `{"title":"alpha"}`, argv: []string{"notes", "show", "alpha"}},
	{tool: "notes:show", input: `{"title":"nope"}`, argv: []string{"notes", "show", "nope"}},
	{tool: "notes:export", input: `{"output":"all.txt"}`, argv: []string{"notes", "export", "--output", "all.txt"}, output: "all.txt"},
	{tool: "text:upper", input: `{"word":["a","-b","c d"]}`, argv: []string{"text", "upper", "--", "a", "-b", "c d"}},
	{tool: "text:count", input: `{"file":"-","verbose":true}`, argv: []string{"text", "count", "-v", "-"}, stdin: "one two\nthree four five\n"},
	{tool: "version", input: `{}`, argv: []string{"version"}},
	{tool: "notes:rm", input: `{"title":"gamma"}`, argv: []string{"notes", "rm", "gamma"}, approve: true},
}

// streams extracts the run a plain tool's Output describes: data (success) or
// error.details (failure) as {stdout, stderr, exit_code}, or, when stdout was one JSON
// document, that document as the data.
type callOutput struct {
	Success bool            `json:"success"`
	Data    json.RawMessage `json:"data"`
	Error   *struct {
		Code    string          `json:"code"`
		Message string          `json:"message"`
		Details json.RawMessage `json:"details"`
	} `json:"error"`
	Metadata map[string]any `json:"metadata"`
}

// copied is a fresh copy of the directory src.
func copied(t *testing.T, src string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data")
	require.NoError(t, os.CopyFS(dir, os.DirFS(src)))
	return dir
}

// TestOutsideCallsMatchTheProgram: every call, on the subprocess and the adapter lane,
// through both entry points, gives what gizmo run directly gives — stdout, stderr and
// exit code byte for byte, the JSON document of notes:show as data with its exact bytes
// in metadata, and the same files. Each call starts from its own copy of one data
// directory gizmo seeded (gizmo's notes are plain files, their content all there is).
func TestOutsideCallsMatchTheProgram(t *testing.T) {
	o := buildOutside(t)
	seed := seeded(t, o)
	for _, e := range entries {
		for _, lane := range []string{"subprocess", "adapter"} {
			for _, tc := range callCases {
				t.Run(fmt.Sprintf("%s/%s/%s%s", e.name, lane, tc.tool, tc.input), func(t *testing.T) {
					direct := copied(t, seed)
					want := runIn(t, direct, tc.stdin, o.gizmo, tc.argv...)

					ws := copied(t, seed)
					args := []string{"--workspace", ws, "call", tc.tool, "--input", tc.input, "--lane", lane}
					stdin := ""
					if tc.stdin != "" {
						args, stdin = append(args, "--stdin", "-"), tc.stdin
					}
					if tc.approve {
						args, stdin = append(args, "--interactive"), "y\n"
					}
					r := e.run(t, o, ws, stdin, args...)
					var out callOutput
					require.NoError(t, json.Unmarshal([]byte(r.Stdout), &out), "%+v", r)

					wantLane := "subprocess"
					if lane == "adapter" && e.inProcess[tc.tool] {
						wantLane = "adapter"
					}
					assert.Equal(t, wantLane, out.Metadata["lane"], "lane")
					if want.ExitCode != 0 {
						require.False(t, out.Success)
						require.Equal(t, "COMMAND_FAILED", out.Error.Code)
						assert.Contains(t, out.Error.Message, fmt.Sprintf("exited with code %d", want.ExitCode))
						var got run
						require.NoError(t, json.Unmarshal(out.Error.Details, &got))
						assert.Equal(t, want, got)
						assert.Equal(t, 1, r.ExitCode, "cmdbridge call exits 1 on a failed tool")
						return
					}
					require.True(t, out.Success, "%+v", out.Error)
					if json.Valid([]byte(want.Stdout)) && strings.TrimSpace(want.Stdout) != "" {
						assert.JSONEq(t, want.Stdout, string(out.Data), "stdout is one JSON document: it is the data")
						assert.Equal(t, want.Stdout, out.Metadata["stdout"], "and its exact bytes are kept beside it")
						assert.Equal(t, want.Stderr, out.Metadata["stderr"])
					} else {
						var got run
						require.NoError(t, json.Unmarshal(out.Data, &got))
						assert.Equal(t, want, got)
					}
					if tc.output != "" {
						wantFile, err := os.ReadFile(filepath.Join(direct, tc.output))
						require.NoError(t, err)
						gotFile, err := os.ReadFile(filepath.Join(ws, tc.output))
						require.NoError(t, err)
						assert.Equal(t, string(wantFile), string(gotFile))
					}
					assert.Equal(t, listing(t, direct), listing(t, ws), "the same files")
				})
			}
		}
	}
}

// listing is every regular file under dir with its content, cmdbridge's state left out.
func listing(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() && (rel == ".cmdbridge" || rel == ".git") {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	}))
	return out
}

// TestOutsideHazardsNeverEndTheServer: text:count on a missing file calls os.Exit inside
// gizmo's action, and notes:add without a title reaches cli.ShowCommandHelpAndExit (the
// schema refuses that input, so it is posted with the title empty as well). Posted to a
// running serve of each entry point, they come back as answers, and the next call works.
func TestOutsideHazardsNeverEndTheServer(t *testing.T) {
	o := buildOutside(t)
	for _, e := range entries {
		t.Run(e.name, func(t *testing.T) {
			ws := seeded(t, o)
			mint := e.run(t, o, ws, "", "--workspace", ws, "token", "mint", "--subject", "ws-1", "--tools", "*", "--write", ".")
			require.Equal(t, 0, mint.ExitCode, "%+v", mint)
			token := strings.TrimSpace(mint.Stdout)
			url, stop := serve(t, e, o, ws)
			defer stop()

			post := func(tool, input string) (int, callOutput) { return postTool(t, url, token, tool, input) }
			status, out := post("text:count", `{"file":"missing.txt"}`)
			require.Equal(t, 200, status)
			require.False(t, out.Success)
			assert.Equal(t, "COMMAND_FAILED", out.Error.Code)
			assert.Contains(t, out.Error.Message, "exited with code 3: gizmo: count: open missing.txt")

			status, out = post("notes:list", `{}`)
			require.Equal(t, 200, status)
			require.True(t, out.Success, "%+v", out.Error)
			var got run
			require.NoError(t, json.Unmarshal(out.Data, &got))
			assert.Equal(t, "alpha\ngamma\n", got.Stdout)
		})
	}
}

// postTool posts input to a serve's /tools/{tool} with a bearer token and returns the
// status and the Output.
func postTool(t *testing.T, url, token, tool, input string) (int, callOutput) {
	t.Helper()
	req, err := http.NewRequest("POST", url+"/tools/"+tool, strings.NewReader(input))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err, "the server must still answer")
	defer resp.Body.Close()
	var out callOutput
	body, _ := io.ReadAll(resp.Body)
	require.NoError(t, json.Unmarshal(body, &out), string(body))
	return resp.StatusCode, out
}

// serve starts the entry point's serve on a free loopback port and returns its URL.
func serve(t *testing.T, e entry, o outside, ws string) (string, func()) {
	t.Helper()
	argv := append(e.argv(o), "--workspace", ws, "serve", "--addr", "127.0.0.1:0")
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = ws
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	lines := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(stdout)
		if s.Scan() {
			lines <- s.Text()
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case url := <-lines:
		return url, func() {
			_ = cmd.Process.Signal(os.Interrupt)
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				_ = cmd.Process.Kill()
				<-done
			}
		}
	case err := <-done:
		t.Fatalf("serve ended before it listened: %v\n%s", err, stderr.String())
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("serve did not print its address\n%s", stderr.String())
	}
	return "", nil
}

// TestOutsideMCPToolsList: the official TypeScript MCP client lists gizmo's tools over
// stdio from both entry points, every schema through the SDK's validation.
func TestOutsideMCPToolsList(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("needs Node.js (node on PATH) to run the official TypeScript MCP client")
	}
	client, _ := filepath.Abs(filepath.Join("testdata", "mcpclient"))
	if _, err := os.Stat(filepath.Join(client, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Fatalf("node is installed but the TypeScript SDK is not: run `make deps`")
	}
	o := buildOutside(t)
	for _, e := range entries {
		t.Run(e.name, func(t *testing.T) {
			ws := t.TempDir()
			args := append([]string{"conformance.mjs", "stdio", "corpus", "8"}, append(e.argv(o), "--workspace", ws, "mcp")...)
			r := runIn(t, client, "", node, args...)
			require.Equal(t, 0, r.ExitCode, "%+v", r)
			var rep struct {
				Tools int `json:"tools"`
			}
			require.NoError(t, json.Unmarshal([]byte(r.Stdout), &rep), r.Stdout)
			assert.Equal(t, 8, rep.Tools)
		})
	}
}

// TestOutsideBridgecheck: bridgecheck, run in the outside module as its maintainers
// would, finds gizmo's app package by what it builds (no path convention) and reports
// both hazards.
func TestOutsideBridgecheck(t *testing.T) {
	o := buildOutside(t)
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	bc := outsidetest.Bridgecheck(t, root)
	r := runIn(t, o.dir, "", bc, "./...")
	assert.Equal(t, 3, r.ExitCode, "findings: %+v", r)
	assert.Contains(t, r.Stderr+r.Stdout, "[show-and-exit] cli.ShowCommandHelpAndExit")
	assert.Contains(t, r.Stderr+r.Stdout, "os.Exit")

	// The tier table written in the outside module judges gizmo's app package, where
	// every leaf's action lives, by its worst finding.
	table := filepath.Join(t.TempDir(), "tiers.json")
	r = runIn(t, o.dir, "", bc, "-tiers", table, "./...")
	require.Equal(t, 0, r.ExitCode, "%+v", r)
	data, err := os.ReadFile(table)
	require.NoError(t, err)
	var tiers struct {
		Packages map[string]struct {
			Tier     string   `json:"tier"`
			Findings []string `json:"findings"`
		} `json:"packages"`
	}
	require.NoError(t, json.Unmarshal(data, &tiers))
	pkg, ok := tiers.Packages["example.com/gizmo/app"]
	require.True(t, ok, "%s", data)
	assert.Equal(t, "subprocess", pkg.Tier)
	assert.Len(t, pkg.Findings, 2, "ShowCommandHelpAndExit and os.Exit: %v", pkg.Findings)
}

// TestOutsideMigratesACommand: gizmo's maintainers migrate notes:list as the docs say —
// scaffold it (gizmo has no native registry: the scaffold declares one and prints how to
// serve it), wire the registry into their standalone main, prove with parity that the
// skeleton is in progress, that a wrong handler fails and that a handler written with
// native.Plain matches the program on every lane (stdout, stderr, exit code and files),
// then serve it natively.
func TestOutsideMigratesACommand(t *testing.T) {
	o := buildOutside(t)
	mod := filepath.Join(t.TempDir(), "gizmo")
	require.NoError(t, os.CopyFS(mod, os.DirFS(o.dir)))
	write := func(rel, text string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(mod, rel)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(mod, rel), []byte(text), 0o644))
	}
	r := runIn(t, mod, "", o.tools, "scaffold", "notes:list")
	require.Equal(t, 0, r.ExitCode, "%+v", r)
	assert.Contains(t, r.Stderr, "scaffold: no *native.Registry variable in this module: nativetools/registry.go declares nativetools.Registry")
	assert.Contains(t, r.Stderr, `scaffold: serve it from your main: import "example.com/gizmo/nativetools" and _ "example.com/gizmo/nativetools/all", and set host.Config{Native: nativetools.Registry}`)
	for _, f := range []string{"nativetools/registry.go", "nativetools/notes/notes_list.go", "nativetools/notes/notes_list_test.go", "testdata/script/parity/notes_list.txtar"} {
		b, err := os.ReadFile(filepath.Join(mod, f))
		require.NoError(t, err, "scaffold wrote %s", f)
		assert.NotContains(t, string(b), "acme", "no corpus data in %s", f)
		assert.NotContains(t, string(b), "delivery", "no corpus data in %s", f)
	}
	// The maintainer's edits, the ones the scaffold printed: the standalone main serves
	// the registry, and the parity script gets a workspace worth comparing on.
	main, err := os.ReadFile(filepath.Join(mod, "cmd", "gizmo-tools", "main.go"))
	require.NoError(t, err)
	edited := strings.Replace(string(main), `	"example.com/gizmo/app"`, `	"example.com/gizmo/app"
	"example.com/gizmo/nativetools"
	_ "example.com/gizmo/nativetools/all"`, 1)
	edited = strings.Replace(edited, `&host.Config{`, `&host.Config{Native: nativetools.Registry,`, 1)
	require.NotEqual(t, string(main), edited)
	write("cmd/gizmo-tools/main.go", edited)
	write("testdata/script/parity/notes_list.txtar", `# notes:list on every lane, with notes in two notebooks.
parity notes:list '{}'
parity notes:list '{"notebook":"misc"}'
parity notes:list '{"notebook":"empty"}'
-- default/beta.txt --
b
-- default/alpha.txt --
#tags: x
a
-- misc/gamma.txt --
g
-- default/not-a-note.md --
`)
	bin := seedBin(t, o, mod)
	rebuild := func() {
		t.Helper()
		cmd := exec.Command("go", "build", "-ldflags=-w", "-o", bin+string(filepath.Separator), "./cmd/...") // -w: no DWARF (nothing debugs the programs), a third off the link
		cmd.Dir = mod
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	rebuild()
	tools := filepath.Join(bin, "gizmo-tools")

	r = runIn(t, mod, "", tools, "parity", "--json")
	require.Equal(t, 1, r.ExitCode, "the skeleton must fail parity: %+v", r)
	assert.Contains(t, r.Stdout, "NOT_IMPLEMENTED")
	assert.Contains(t, r.Stdout, `"status": "in-progress"`, "the skeleton is a tool in progress, not a broken suite")
	assert.Contains(t, r.Stderr, "IN PROGRESS (native handler answers NOT_IMPLEMENTED; write it, rebuild, run parity again): notes:list")

	handler := filepath.Join(mod, "nativetools", "notes", "notes_list.go")
	src, err := os.ReadFile(handler)
	require.NoError(t, err)
	stub := `	return tool.Fail(tool.CodeNotImplemented, "notes:list: the native handler is not written yet")`
	require.Contains(t, string(src), stub)
	require.Contains(t, string(src), `p := native.Plain{Name: "notes:list"}`, "the stub of a plain command shows native.Plain")
	// writeHandler replaces the stub with a handler listing the notebook's notes; sep
	// ends each title.
	writeHandler := func(sep string) {
		t.Helper()
		written := strings.Replace(string(src), stub, `	dir, notebook := in.DataDir, in.Notebook // an absent property decodes empty: gizmo's defaults
	if dir == "" {
		dir = "."
	}
	if notebook == "" {
		notebook = "default"
	}
	p := native.Plain{Name: "notes:list"}
	entries, err := os.ReadDir(filepath.Join(env.Dir, dir, notebook))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintln(&p.Stderr, err)
		return p.Exit(1)
	}
	for _, e := range entries { // ReadDir sorts by name, as gizmo does
		if name, ok := strings.CutSuffix(e.Name(), ".txt"); ok && !e.IsDir() {
			fmt.Fprint(&p.Stdout, name+`+strconv.Quote(sep)+`)
		}
	}
	return p.Exit(0)`, 1)
		written = strings.Replace(written, "import (\n", "import (\n\t\"errors\"\n\t\"fmt\"\n\t\"io/fs\"\n\t\"os\"\n\t\"path/filepath\"\n\t\"strings\"\n", 1)
		require.NoError(t, os.WriteFile(handler, []byte(written), 0o644))
	}

	// A wrong handler (titles separated by spaces): parity fails and says where.
	writeHandler(" ")
	rebuild()
	r = runIn(t, mod, "", tools, "parity", "notes:list")
	require.Equal(t, 1, r.ExitCode, "a wrong handler must fail parity: %+v", r)
	assert.Contains(t, r.Stdout, "FAIL  notes:list")
	assert.Contains(t, r.Stdout, "0 passed, 1 failed")
	assert.Contains(t, r.Stderr, "stdout")
	state, _ := parityStatus(t, mod, tools, "", "notes:list")
	assert.Equal(t, "fail", state)

	writeHandler("\n")
	// The scaffolded test pins NOT_IMPLEMENTED until the handler is written; the
	// maintainer turns it into a test of the handler.
	testFile := filepath.Join(mod, "nativetools", "notes", "notes_list_test.go")
	testSrc, err := os.ReadFile(testFile)
	require.NoError(t, err)
	pinned := "require.NotNil(t, out.Error)\n\tassert.Equal(t, tool.CodeNotImplemented, out.Error.Code)"
	require.Contains(t, string(testSrc), pinned)
	require.NoError(t, os.WriteFile(testFile, []byte(strings.Replace(string(testSrc), pinned,
		"require.Nil(t, out.Error)\n\tassert.True(t, out.Success)", 1)), 0o644))
	rebuild()
	// The scaffolded test uses testify: `go mod tidy` records it, as it would for gizmo.
	gotest := exec.Command("sh", "-c", "go mod tidy && go test ./nativetools/...")
	gotest.Dir = mod
	out, err := gotest.CombinedOutput()
	require.NoError(t, err, "the scaffolded unit test passes with the handler written:\n%s", out)

	r = runIn(t, mod, "", tools, "parity")
	if r.ExitCode != 0 {
		j := runIn(t, mod, "", tools, "parity", "--json")
		t.Fatalf("the written handler must pass parity on every lane: %+v\n%s", r, j.Stdout)
	}
	assert.Contains(t, r.Stdout, "1 passed, 0 failed")

	status := runIn(t, mod, "", tools, "status", "--json")
	require.Equal(t, 0, status.ExitCode, "%+v", status)
	assert.Contains(t, status.Stdout, `"notes:list"`)

	// Routed native in the workspace's config, the tool is served by the handler.
	ws := seeded(t, o)
	require.NoError(t, os.MkdirAll(filepath.Join(ws, ".cmdbridge"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".cmdbridge", "config.yaml"), []byte("routes:\n  notes:list: native\n"), 0o644))
	r = runIn(t, ws, "", tools, "call", "notes:list")
	require.Equal(t, 0, r.ExitCode, "%+v", r)
	var call callOutput
	require.NoError(t, json.Unmarshal([]byte(r.Stdout), &call))
	assert.Equal(t, "native", call.Metadata["lane"])
	var got run
	require.NoError(t, json.Unmarshal(call.Data, &got))
	assert.Equal(t, runIn(t, ws, "", o.gizmo, "notes", "list"), got)
}

// TestOutsideParityRefusesAStaleBinary: gizmo-tools, built before notes:list was
// scaffolded, runs parity on the source that now has the native tool. The binary lacks
// it, so its run would compare the legacy lanes only and pass: parity must refuse it as
// an error naming the rebuild, exit 1, and record no pass for status to show.
func TestOutsideParityRefusesAStaleBinary(t *testing.T) {
	o := buildOutside(t)
	mod := filepath.Join(t.TempDir(), "gizmo")
	require.NoError(t, os.CopyFS(mod, os.DirFS(o.dir)))
	require.NoError(t, os.MkdirAll(filepath.Join(mod, "tools"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(mod, "tools", "tools.go"), []byte(`// Package tools holds gizmo's commands migrated to native Go.
package tools

import "github.com/cmdbridge/cmdbridge/tool/native"

// Registry is where migrated tools register (host.Config.Native).
var Registry = native.NewRegistry()
`), 0o644))
	r := runIn(t, mod, "", o.tools, "scaffold", "notes:list")
	require.Equal(t, 0, r.ExitCode, "%+v", r)

	results := filepath.Join(t.TempDir(), "last.json")
	r = runIn(t, mod, "", o.tools, "parity", "--results", results, "notes:list")
	assert.Equal(t, 1, r.ExitCode, "%+v", r)
	assert.NotContains(t, r.Stdout, "PASS")
	assert.Contains(t, r.Stdout, "ERROR notes:list")
	assert.Contains(t, r.Stdout, "parity: 0 passed, 0 failed, 1 errors")
	assert.Contains(t, r.Stderr, "stale binary: the source has a native notes:list (nativetools/notes/notes_list.go)")
	assert.Contains(t, r.Stderr, "Rebuild it: `go build -o "+o.tools+" ./cmd/gizmo-tools`")

	status := runIn(t, mod, "", o.tools, "status", "--json", "--results", results)
	require.Equal(t, 0, status.ExitCode, "%+v", status)
	var rep struct {
		Tools []struct {
			Name   string `json:"name"`
			Parity string `json:"parity"`
			Diff   string `json:"diff"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal([]byte(status.Stdout), &rep), status.Stdout)
	found := false
	for _, tl := range rep.Tools {
		if tl.Name == "notes:list" {
			found = true
			assert.Equal(t, "error", tl.Parity)
			assert.Contains(t, tl.Diff, "Rebuild it")
		}
	}
	assert.True(t, found, "%s", status.Stdout)
}

// TestOutsideStandaloneWithoutTheProgram: with no gizmo installed (not next to
// gizmo-tools, not on $PATH), the standalone main's subprocess lane re-runs the app
// itself, and the output is still gizmo's.
func TestOutsideStandaloneWithoutTheProgram(t *testing.T) {
	o := buildOutside(t)
	alone := filepath.Join(t.TempDir(), "gizmo-tools")
	b, err := os.ReadFile(o.tools)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(alone, b, 0o755))
	t.Setenv("PATH", filepath.Dir(alone)) // no gizmo anywhere on it

	ws := seeded(t, o)
	want := runIn(t, ws, "", o.gizmo, "notes", "--notebook", "misc", "list")
	r := runIn(t, ws, "", alone, "call", "notes:list", "--input", `{"notebook":"misc"}`, "--lane", "subprocess")
	require.Equal(t, 0, r.ExitCode, "%+v", r)
	var out callOutput
	require.NoError(t, json.Unmarshal([]byte(r.Stdout), &out))
	assert.Equal(t, "subprocess", out.Metadata["lane"])
	var got run
	require.NoError(t, json.Unmarshal(out.Data, &got))
	assert.Equal(t, want, got)
}

// TestOutsideToolsMeetProviderRules: gizmo's tools, as `mcp` lists them over stdio from
// both entry points, are taken as sent by every provider (internal/providerrules), the
// same rules TestEveryProviderAcceptsTheToolList holds the corpus to.
func TestOutsideToolsMeetProviderRules(t *testing.T) {
	o := buildOutside(t)
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	}, "\n") + "\n"
	for _, e := range entries {
		t.Run(e.name, func(t *testing.T) {
			ws := t.TempDir()
			r := e.run(t, o, ws, in, "--workspace", ws, "mcp")
			var listed []map[string]any
			for _, line := range strings.Split(r.Stdout, "\n") {
				var msg struct {
					ID     int `json:"id"`
					Result struct {
						Tools []map[string]any `json:"tools"`
					} `json:"result"`
				}
				if json.Unmarshal([]byte(line), &msg) == nil && msg.ID == 2 {
					listed = msg.Result.Tools
				}
			}
			require.Len(t, listed, 8, "%+v", r)
			for _, tl := range listed {
				s, _ := tl["inputSchema"].(map[string]any)
				for provider, check := range providerrules.Portable {
					assert.Empty(t, check(s), "%s: %s", tl["name"], provider)
				}
			}
		})
	}
}

// statusRow is one tool's row of `status --json`.
type statusRow struct {
	Name   string `json:"name"`
	Route  string `json:"route"`
	Parity string `json:"parity"`
	Diff   string `json:"diff"`
}

// parityStatus is one tool's parity state as `status --json` shows it.
func parityStatus(t *testing.T, dir, exe, results, name string) (state, diff string) {
	t.Helper()
	row := statusOf(t, dir, []string{exe}, results, name)
	return row.Parity, row.Diff
}

// statusOf is one tool's row of `status --json` (with the results file results, or
// the default one when results is "").
// cmd is the command line before `status` (gizmo-tools, or gizmo bridge).
func statusOf(t *testing.T, dir string, cmd []string, results, name string) statusRow {
	t.Helper()
	args := append(append([]string(nil), cmd[1:]...), "status", "--json")
	if results != "" {
		args = append(args, "--results", results)
	}
	r := runIn(t, dir, "", cmd[0], args...)
	require.Equal(t, 0, r.ExitCode, "%+v", r)
	var rep struct {
		Tools []statusRow `json:"tools"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.Stdout), &rep), r.Stdout)
	for _, tl := range rep.Tools {
		if tl.Name == name {
			return tl
		}
	}
	t.Fatalf("status lists no %s: %s", name, r.Stdout)
	return statusRow{}
}

// writeScript writes the parity script of a tool into a copy of gizmo's module.
func writeScript(t *testing.T, mod, stem, text string) {
	t.Helper()
	dir := filepath.Join(mod, "testdata", "script", "parity")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, stem+".txtar"), []byte(text), 0o644))
}

// TestOutsideParityRoutesAnUnanalysedCommand: text count calls os.Exit on a missing
// file, and gizmo-tools does not vouch for it. Parity's adapter lane runs it on the
// subprocess lane, as serving does, says so, and the two lanes agree: the run is not
// ended by the command.
func TestOutsideParityRoutesAnUnanalysedCommand(t *testing.T) {
	o := buildOutside(t)
	mod := t.TempDir()
	writeScript(t, mod, "text_count", "parity text:count '{\"file\":\"missing.txt\"}'\nstdout '\"error_code\": \"COMMAND_FAILED\"'\n")
	results := filepath.Join(t.TempDir(), "last.json")
	r := runIn(t, mod, "", o.tools, "parity", "--results", results, "text:count")
	require.Equal(t, 0, r.ExitCode, "%+v", r)
	assert.Contains(t, r.Stdout, "PASS  text:count subprocess,adapter=subprocess(unanalysed)")
	row := statusOf(t, mod, []string{o.tools}, results, "text:count")
	assert.Equal(t, "pass", row.Parity)
	assert.Equal(t, "subprocess", row.Route, "status's route says what runs: the subprocess lane")
	assert.Equal(t, "adapter", statusOf(t, mod, []string{o.tools}, results, "notes:list").Route, "vouched for: in-process")

	// The one-line entry point: every leaf's tier is subprocess (the running app cannot
	// run again in-process), and status says what runs.
	assert.Equal(t, "subprocess", statusOf(t, mod, []string{o.gizmo, "bridge"}, results, "notes:list").Route)
}

// TestOutsideParityReportsALaneThatEndsTheProcess: a maintainer vouches for every text
// command (wrongly: text count calls os.Exit), so parity's adapter lane runs it in the
// parity process, and the command ends that process. The run still reports it — an
// ERROR naming the call and the lane, exit 1 — and status shows that error, not the
// pass an earlier run recorded.
func TestOutsideParityReportsALaneThatEndsTheProcess(t *testing.T) {
	o := buildOutside(t)
	mod := filepath.Join(t.TempDir(), "gizmo")
	require.NoError(t, os.CopyFS(mod, os.DirFS(o.dir)))
	main := filepath.Join(mod, "cmd", "gizmo-tools", "main.go")
	src, err := os.ReadFile(main)
	require.NoError(t, err)
	vouched := strings.Replace(string(src), `"text:upper", "version"`, `"text:*", "version"`, 1)
	require.NotEqual(t, string(src), vouched)
	require.NoError(t, os.WriteFile(main, []byte(vouched), 0o644))
	bin := seedBin(t, o, mod)
	build := exec.Command("go", "build", "-ldflags=-w", "-o", bin+string(filepath.Separator), "./cmd/...") // -w: no DWARF (nothing debugs the programs), a third off the link
	build.Dir = mod
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	tools := filepath.Join(bin, "gizmo-tools")
	results := filepath.Join(t.TempDir(), "last.json")

	// Counting a file that exists never reaches the os.Exit: a pass.
	writeScript(t, mod, "text_count", "parity text:count '{\"file\":\"notes.txt\"}'\n-- notes.txt --\none two\n")
	r := runIn(t, mod, "", tools, "parity", "--results", results, "text:count")
	require.Equal(t, 0, r.ExitCode, "%+v", r)
	assert.Contains(t, r.Stdout, "PASS  text:count subprocess,adapter ", "vouched for: in-process")
	state, _ := parityStatus(t, mod, tools, results, "text:count")
	require.Equal(t, "pass", state)

	// A missing file: os.Exit(3) in the parity process, on the adapter lane. The run
	// that ended leaves no temporary file behind.
	writeScript(t, mod, "text_count", "parity text:count '{\"file\":\"missing.txt\"}'\n")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	r = runIn(t, mod, "", tools, "parity", "--results", results, "text:count")
	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, left, "the ended run's scratch copies and work directories are removed")
	assert.Equal(t, 1, r.ExitCode, "%+v", r)
	assert.Contains(t, r.Stdout, "ERROR text:count")
	assert.Contains(t, r.Stderr, `it ended while the adapter lane ran text:count {"file":"missing.txt"} in its own process`)
	assert.Contains(t, r.Stderr, "parity: the run ended with exit code 3 before it finished")
	state, diff := parityStatus(t, mod, tools, results, "text:count")
	assert.Equal(t, "error", state, "never the older pass")
	assert.Contains(t, diff, "give text:count the subprocess tier")
}

// TestRedTeamOutsidePathFlagsStayInScope: gizmo declares which of its flags name files
// (app/effects.yaml, paths): a caller who may only read the workspace cannot point
// --data-dir or --notebook outside it or into cmdbridge's state to read another
// directory's notes, nor write a note with a read scope (the path flags left to their
// defaults: the workspace's scope applies) — on both lines; the same call inside the
// workspace answers.
func TestRedTeamOutsidePathFlagsStayInScope(t *testing.T) {
	o := buildOutside(t)
	elsewhere := seeded(t, o) // notes outside the caller's workspace
	for _, e := range entries {
		t.Run(e.name, func(t *testing.T) {
			ws := seeded(t, o)
			up, err := filepath.Rel(ws, elsewhere)
			require.NoError(t, err)
			call := func(name, input string) tool.Output {
				t.Helper()
				r := e.run(t, o, ws, "", "--workspace", ws, "call", name, "--input", input, "--scope", "read:.")
				var out tool.Output
				require.NoError(t, json.Unmarshal([]byte(r.Stdout), &out), "%+v", r)
				return out
			}
			for _, input := range []string{
				`{"data_dir":` + strconv.Quote(elsewhere) + `,"title":"alpha"}`,
				`{"notebook":` + strconv.Quote(up) + `,"title":"alpha"}`,
				`{"data_dir":".git/cmdbridge","notebook":"evidence","title":"receipts"}`,
				`{"notebook":"` + filepath.Join("..", "..", "..", "etc") + `","title":"hostname"}`,
			} {
				out := call("notes:show", input)
				require.False(t, out.Success, "notes:show %s was allowed: %v", input, out.Data)
				assert.Equal(t, tool.CodeScopeDenied, out.Error.Code, input)
			}
			// text:count reads the file it is given: one outside the workspace is
			// refused (it was counted before its file was declared; through a link and
			// "..", before paths were walked as the system opens them), one inside is not.
			secret := filepath.Join(elsewhere, "secret.txt")
			require.NoError(t, os.WriteFile(secret, []byte("one two three\n"), 0o644))
			// A link the workspace carries (a repository may) into a directory outside:
			// "deep/../secret.txt" is the secret for the program's open.
			require.NoError(t, os.MkdirAll(filepath.Join(elsewhere, "deep"), 0o755))
			require.NoError(t, os.Symlink(filepath.Join(elsewhere, "deep"), filepath.Join(ws, "deep")))
			for _, input := range []string{`{"file":` + strconv.Quote(secret) + `}`, `{"file":` + strconv.Quote(filepath.Join(up, "secret.txt")) + `}`,
				`{"file":"deep/../secret.txt"}`} {
				out := call("text:count", input)
				require.False(t, out.Success, "text:count %s was allowed: %v", input, out.Data)
				assert.Equal(t, tool.CodeScopeDenied, out.Error.Code, input)
			}
			require.NoError(t, os.WriteFile(filepath.Join(ws, "mine.txt"), []byte("one two\n"), 0o644))
			out := call("text:count", `{"file":"mine.txt"}`)
			assert.True(t, out.Success, "%+v", out.Error)
			out = call("notes:add", `{"title":"mine","body":"x"}`)
			require.False(t, out.Success, "a read scope wrote a note")
			assert.Equal(t, tool.CodeScopeDenied, out.Error.Code)
			out = call("notes:show", `{"title":"alpha"}`)
			assert.True(t, out.Success, "%+v", out.Error)
		})
	}
}
