package cmdbridge_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge"
	"github.com/cmdbridge/cmdbridge/host"
	"github.com/cmdbridge/cmdbridge/internal/outsidetest"
	"github.com/cmdbridge/cmdbridge/surface/cli/statuscmd"
	"github.com/cmdbridge/cmdbridge/tool"
)

// wrapped runs `cmdbridge wrap PROGRAM args…` in this process (host.WrapCommand in
// an app of its own, as cmd/cmdbridge has it) and returns what it printed.
func wrapped(t *testing.T, cfg *host.Config, program string, args ...string) run {
	t.Helper()
	return wrappedWith(t, cfg, nil, program, args...)
}

// wrappedWith is wrapped with wrap's own options (--effects FILE) before the program.
func wrappedWith(t *testing.T, cfg *host.Config, opts []string, program string, args ...string) run {
	t.Helper()
	var out, errb bytes.Buffer
	app := &cli.App{
		Name: "cmdbridge", Writer: &out, ErrWriter: &errb,
		Commands:       []*cli.Command{host.WrapCommand(cfg)},
		ExitErrHandler: func(*cli.Context, error) {}, // the exit status is the test's to read
	}
	argv := append(append([]string{"cmdbridge", "wrap"}, opts...), program)
	err := app.Run(append(argv, args...))
	code := 0
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		code = ec.ExitCode()
		if msg := err.Error(); msg != "" { // what urfave/cli's own handler would print
			errb.WriteString(msg + "\n")
		}
	} else {
		require.NoError(t, err)
	}
	return run{out.String(), errb.String(), code}
}

// wrapCase is one outside module served both ways: adopted in source (argv of its
// bridge) and wrapped from its plain binary.
type wrapCase struct {
	name    string
	adopted []string
	plain   string
	cfg     *host.Config
	// differ are the schema differences help output cannot carry: tool → property →
	// the reason. The test fails when one of them is not a difference any more.
	differ map[string]map[string]string
	// effects are wrap's options that declare what the commands do, for calls (the
	// adoption compared with is built without them).
	effects []string
}

func wrapCases(t *testing.T) []wrapCase {
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	dbkit := outsidetest.Build(t, "dbkit", outsidetest.DBKit(root, "nil"))
	dbkitPlain := outsidetest.Build(t, "dbkit-plain", outsidetest.DBKitPlain(root))
	o := buildOutside(t)
	gizmoEffects, err := os.ReadFile(filepath.Join(root, "testdata", "outside", "app", "effects.yaml"))
	require.NoError(t, err)
	return []wrapCase{
		{name: "dbkit", adopted: []string{dbkit.Exe("dbkit"), "bridge"}, plain: dbkitPlain.Exe("dbkit"),
			effects: []string{"--effects", filepath.Join(root, "testdata", "effects", "dbkit.yaml")}},
		{
			name: "gizmo", adopted: []string{o.gizmo, "bridge"}, plain: filepath.Join(o.bin, "gizmo-plain"),
			// cmd/gizmo's own Config: the same reading, given to wrap.
			cfg: &host.Config{Config: cmdbridge.Config{LeadingDash: map[string][]string{"text:upper": {"WORD"}}, EffectsYAML: gizmoEffects}},
			differ: map[string]map[string]string{
				"notes:export": {"required": "--output is Required, which urfave/cli v2's help never prints"},
			},
		},
	}
}

// TestWrapMatchesTheInSourceAdoption: `cmdbridge wrap` on a plain binary serves the
// same tools as the program adopted in one line: its tool list and its whole manifest
// (names, domains, descriptions, annotations, lanes, governance, warnings, and schemas:
// properties, types, required, defaults, descriptions, positionals), except what help output cannot carry, listed in differ
// with the reason. Environment variables reach no schema: TestDiscoverRoundTrips
// (tool/legacy/helptree) checks them, with every other word of every help page.
func TestWrapMatchesTheInSourceAdoption(t *testing.T) {
	for _, tc := range wrapCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			want := runIn(t, dir, "", tc.adopted[0], append(tc.adopted[1:], "tools", "list", "--json")...)
			require.Equal(t, 0, want.ExitCode, want.Stderr)
			got := wrapped(t, tc.cfg, tc.plain, "--workspace", dir, "tools", "list", "--json")
			require.Equal(t, 0, got.ExitCode, got.Stderr)
			assert.JSONEq(t, want.Stdout, got.Stdout, "tools list --json")

			want = runIn(t, dir, "", tc.adopted[0], append(tc.adopted[1:], "tools", "manifest")...)
			require.Equal(t, 0, want.ExitCode, want.Stderr)
			got = wrapped(t, tc.cfg, tc.plain, "--workspace", dir, "tools", "manifest")
			require.Equal(t, 0, got.ExitCode, got.Stderr)
			type manifest struct {
				Tools []map[string]any `json:"tools"`
			}
			var wm, gm manifest
			require.NoError(t, json.Unmarshal([]byte(want.Stdout), &wm))
			require.NoError(t, json.Unmarshal([]byte(got.Stdout), &gm))
			require.NotEmpty(t, wm.Tools)
			require.Len(t, gm.Tools, len(wm.Tools))
			for i, wt := range wm.Tools {
				gt := gm.Tools[i]
				name, _ := wt["name"].(string)
				ws, _ := wt["input_schema"].(map[string]any)
				gs, _ := gt["input_schema"].(map[string]any)
				require.NotNil(t, ws, name)
				require.NotNil(t, gs, name)
				for key, why := range tc.differ[name] {
					assert.NotEqual(t, ws[key], gs[key], "%s %s is listed as a difference (%s) but matches: remove it", name, key, why)
					delete(ws, key)
					delete(gs, key)
				}
				assert.Equal(t, wt, gt, "the manifest's entry of %s", name)
			}
		})
	}
}

// streams are the program's stdout, stderr and exit code as a call's Output carries
// them: data for a plain success (or, when stdout was one JSON document, that document),
// error.details for a failure.
func streams(t *testing.T, out string) (success bool, data any, r run) {
	t.Helper()
	var o struct {
		Success bool            `json:"success"`
		Data    json.RawMessage `json:"data"`
		Error   *struct {
			Details json.RawMessage `json:"details"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &o), out)
	raw := o.Data
	if !o.Success {
		require.NotNil(t, o.Error, out)
		raw = o.Error.Details
	}
	if err := json.Unmarshal(raw, &r); err != nil || (r == run{} && !bytes.Contains(raw, []byte(`"exit_code"`))) {
		require.NoError(t, json.Unmarshal(raw, &data), out)
		return o.Success, data, run{}
	}
	return o.Success, nil, r
}

// TestWrapCallsMatchTheProgram: calls through the wrap (aliases included) print what
// the program prints run directly, byte for byte, and exit as it exits; each step runs
// in its own copy of one workspace, so files the program writes are compared too.
func TestWrapCallsMatchTheProgram(t *testing.T) {
	cases := wrapCases(t)
	steps := map[string][]struct {
		tool, input string
		argv        []string // the same run, typed directly
	}{
		"dbkit": {
			{"status", `{"url":"file:db.txt"}`, []string{"--url", "file:db.txt", "status"}},
			{"create", `{"url":"file:db.txt"}`, []string{"--url", "file:db.txt", "create"}},
			{"up", `{"url":"file:db.txt","migrations_dir":"m"}`, []string{"--url", "file:db.txt", "--migrations-dir", "m", "up"}},
			{"status", `{"url":"file:db.txt","migrations_dir":"m","exit_code":true}`, []string{"--url", "file:db.txt", "--migrations-dir", "m", "status", "--exit-code"}},
			{"down", `{"url":"file:db.txt","migrations_dir":"m"}`, []string{"--url", "file:db.txt", "--migrations-dir", "m", "rollback"}},
			{"dump", `{"url":"file:db.txt","file":"out/schema.sql"}`, []string{"--url", "file:db.txt", "dump", "out/schema.sql"}},
			{"drop", `{"url":"file:nope.txt"}`, []string{"--url", "file:nope.txt", "drop"}},
		},
		"gizmo": {
			{"notes:add", `{"title":"hello","body":"hi","tag":["a","b"],"notebook":"misc"}`, []string{"notes", "--notebook", "misc", "add", "--tag", "a", "--tag", "b", "--body", "hi", "hello"}},
			{"notes:list", `{"notebook":"misc"}`, []string{"notes", "--notebook", "misc", "list"}},
			{"notes:show", `{"title":"hello","notebook":"misc"}`, []string{"notes", "-n", "misc", "show", "hello"}},
			{"notes:remove", `{"title":"nope"}`, []string{"notes", "rm", "nope"}},
			{"text:upper", `{"word":["-x","y"]}`, []string{"text", "upper", "--", "-x", "y"}},
			{"text:count", `{"file":"missing.txt","verbose":true}`, []string{"text", "count", "-v", "missing.txt"}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			viaWrap, direct := t.TempDir(), t.TempDir()
			for _, dir := range []string{viaWrap, direct} {
				require.NoError(t, os.MkdirAll(filepath.Join(dir, "m"), 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(dir, "m", "0001_init.sql"), []byte("-- migrate:up\n"), 0o644))
			}
			// These calls compare bytes, not approvals: the workspace's policy allows
			// the destructive ones (rollback, drop, notes:rm) the default policy asks for.
			require.NoError(t, os.MkdirAll(filepath.Join(viaWrap, ".cmdbridge"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(viaWrap, ".cmdbridge", "config.yaml"),
				[]byte("policy:\n  - {name: compare-bytes, tool: '*', decision: allow}\n"), 0o644))
			for _, s := range steps[tc.name] {
				want := runIn(t, direct, "", tc.plain, s.argv...)
				got := wrappedWith(t, tc.cfg, tc.effects, tc.plain, "--workspace", viaWrap, "call", s.tool, "--input", s.input)
				ok, data, r := streams(t, got.Stdout)
				assert.Equal(t, want.ExitCode == 0, ok, "%s: success\n%s%s", s.tool, got.Stdout, got.Stderr)
				if data != nil { // stdout was one JSON document
					var w any
					require.NoError(t, json.Unmarshal([]byte(want.Stdout), &w), s.tool)
					assert.Equal(t, w, data, s.tool)
					continue
				}
				assert.Equal(t, want, r, "%s %s", s.tool, s.input)
			}
			assert.Equal(t, listing(t, direct), listing(t, viaWrap), "the files both ways wrote")
		})
	}
}

// TestWrapRefusesWhatItCannotServe: a program that is not urfave/cli, or is nowhere,
// gets a message saying what to do and exit status 1, at once.
func TestWrapRefusesWhatItCannotServe(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage")
	require.NoError(t, os.WriteFile(garbage, []byte("#!/bin/sh\necho 'garbage v1: try --frobnicate'\n"), 0o755))
	for program, want := range map[string]string{
		garbage:                     "printed no urfave/cli v2 help: no NAME: and USAGE: sections",
		"/bin/true":                 "printed no urfave/cli v2 help: no NAME: and USAGE: sections",
		filepath.Join(dir, "none"):  "not found",
		"no-such-program-on-path-x": "put its directory on $PATH",
	} {
		r := wrapped(t, nil, program, "tools", "list")
		assert.Equal(t, 1, r.ExitCode, program)
		assert.Contains(t, r.Stderr, "cmdbridge wrap: ", program)
		assert.Contains(t, r.Stderr, want, program)
		assert.Empty(t, r.Stdout, program)
	}
	r := wrapped(t, &host.Config{InProcess: []string{"*"}}, "/bin/true", "tools", "list")
	assert.Equal(t, 2, r.ExitCode)
	assert.Contains(t, r.Stderr, "do not apply to a wrapped program")

	// The variable that names the corpus's binary would make every call run another
	// program.
	t.Setenv("CMDBRIDGE_BIN", "/bin/true")
	r = wrapped(t, nil, garbage, "tools", "list")
	assert.Equal(t, 2, r.ExitCode)
	assert.Contains(t, r.Stderr, "CMDBRIDGE_BIN=/bin/true is set, but a wrapped program's calls run "+garbage+" itself: unset it")
}

// oddProgram prints urfave/cli help pages with what wrap cannot read: an option line
// whose names disagree on their placeholder, a default no flag type prints, and a
// command whose help fails.
const oddProgram = `#!/bin/sh
case "$*" in
--help) cat <<'HELP'
NAME:
   odd - a program with odd help

USAGE:
   odd [global options] command [command options]

COMMANDS:
   good     reads fine
   broken   its help fails
   help, h  Shows a list of commands or help for one command

GLOBAL OPTIONS:
   --mode M, -m N   mixed placeholders
   --help, -h       show help
HELP
;;
"help good") cat <<'HELP'
NAME:
   odd good - reads fine

USAGE:
   odd good [command options] NAME

OPTIONS:
   --level value  how loud (default: loud-ish)
   --when value   a default no type prints (default: sometimes, never)
   --help, -h     show help
HELP
;;
*) echo "odd: cannot $*" >&2; exit 3;;
esac
`

// TestWrapWarnsWhatItCouldNotRead: what the help did not say legibly is a warning of
// each tool it concerns, shown by tools list and status as schema warnings are; the
// tools are still served.
func TestWrapWarnsWhatItCouldNotRead(t *testing.T) {
	dir := t.TempDir()
	odd := filepath.Join(dir, "odd")
	require.NoError(t, os.WriteFile(odd, []byte(oddProgram), 0o755))
	r := wrapped(t, nil, odd, "--workspace", dir, "tools", "list")
	require.Equal(t, 0, r.ExitCode, r.Stderr)
	for _, want := range []string{
		"broken (!)", "good (!)",
		`broken: odd: option line "--mode M, -m N   mixed placeholders": its names have different placeholders ("M", "N"): not an input`,
		`good: odd: option line "--mode M, -m N`,
		"broken: odd broken: its help could not be read (odd broken --help: not a urfave/cli v2 help page: it printed nothing (exit status 3, stderr: odd: cannot broken --help)): it is served without options or positionals",
		"2 tools with schema warnings",
	} {
		assert.Contains(t, r.Stdout, want)
	}
	assert.NotContains(t, r.Stdout, "good: odd good:", "a default it reads as text is no warning")

	r = wrapped(t, nil, odd, "--workspace", dir, "tools", "schema", "good")
	require.Equal(t, 0, r.ExitCode, r.Stderr)
	assert.JSONEq(t, `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","additionalProperties":false,
		"properties":{"level":{"type":"string","description":"how loud","default":"loud-ish"},
		"when":{"type":"string","description":"a default no type prints","default":"sometimes, never"},
		"name":{"type":"string","pattern":"^(?:$|-$|[^-])"}},"required":["name"]}`, r.Stdout)

	// status, as cmd/cmdbridge's wrap has it (host.Config.Hosted).
	r = wrapped(t, &host.Config{Hosted: []*cli.Command{statuscmd.Command()}}, odd, "--workspace", dir, "status")
	require.Equal(t, 0, r.ExitCode, r.Stderr)
	assert.Contains(t, r.Stdout, "its help could not be read")
}

// TestWrapDeclaresEffectsFromAFile: a wrapped program's commands are undeclared, so
// destructive, until `wrap --effects FILE` declares them: then the read-only profile
// and the default policy follow the file; a bad option or file is refused with what
// to do.
func TestWrapDeclaresEffectsFromAFile(t *testing.T) {
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	plain := outsidetest.Build(t, "dbkit-plain", outsidetest.DBKitPlain(root)).Exe("dbkit")
	file := filepath.Join(root, "testdata", "effects", "dbkit.yaml")
	ws := t.TempDir()

	bare := wrapped(t, nil, plain, "--workspace", ws, "tools", "list")
	require.Equal(t, 0, bare.ExitCode, "%+v", bare)
	assert.Contains(t, bare.Stdout+bare.Stderr, "drop: effects undeclared")
	drop := wrapped(t, nil, plain, "--workspace", ws, "call", "drop", "--input", `{"url":"file:db.txt"}`)
	assert.Contains(t, drop.Stdout, "APPROVAL_REQUIRED", "an undeclared command is destructive: %+v", drop)

	declared := wrappedWith(t, nil, []string{"--effects", file}, plain, "--workspace", ws, "tools", "list", "--json")
	require.Equal(t, 0, declared.ExitCode, "%+v", declared)
	assert.NotContains(t, declared.Stdout+declared.Stderr, "effects undeclared")
	assert.NotContains(t, declared.Stdout+declared.Stderr, "is named like a path", "the table declares every path input of dbkit's")
	ro := wrappedWith(t, nil, []string{"--effects=" + file}, plain, "--workspace", ws, "tools", "list", "--profile", "read-only")
	require.Equal(t, 0, ro.ExitCode, "%+v", ro)
	assert.Contains(t, ro.Stdout, "status")
	assert.NotContains(t, ro.Stdout, "drop")
	status := wrappedWith(t, nil, []string{"--effects", file}, plain, "--workspace", ws, "call", "status", "--input", `{"url":"file:db.txt"}`)
	assert.NotContains(t, status.Stdout, "APPROVAL_REQUIRED", "%+v", status)
	drop = wrappedWith(t, nil, []string{"--effects", file}, plain, "--workspace", ws, "call", "drop", "--input", `{"url":"file:db.txt"}`)
	assert.Contains(t, drop.Stdout, "APPROVAL_REQUIRED", "drop is declared destructive: %+v", drop)

	for _, argv := range [][]string{{"--effects"}, {"--effects", filepath.Join(ws, "none.yaml"), plain}, {"--bogus", plain}, {"--effects", file}} {
		r := wrappedWith(t, nil, argv[:len(argv)-1], argv[len(argv)-1])
		assert.Equal(t, 2, r.ExitCode, "%v: %+v", argv, r)
		assert.Contains(t, r.Stderr, "--effects", "%v: the message names wrap's option", argv)
	}
}

// TestWrapHostEntryKeepsTheEffects: `wrap --effects FILE PROGRAM mcp enable` writes a
// host entry that launches the same program with the same effects (never one serving
// every command as undeclared), and a project-scope file names both in the host's own
// terms (workspace-relative), never this machine's paths; a file outside the workspace
// is refused for the project scope.
func TestWrapHostEntryKeepsTheEffects(t *testing.T) {
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	plain := outsidetest.Build(t, "dbkit-plain", outsidetest.DBKitPlain(root)).Exe("dbkit")
	ws := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".git"), nil, 0o644)) // a project root for the host
	data, err := os.ReadFile(filepath.Join(root, "testdata", "effects", "dbkit.yaml"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(ws, "effects.yaml"), data, 0o644))
	exe, err := os.ReadFile(plain)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(ws, "dbkit"), exe, 0o755))
	// The entry launches this executable by its name on PATH (the test binary plays
	// cmdbridge).
	bin := t.TempDir()
	self, err := os.Executable()
	require.NoError(t, err)
	require.NoError(t, os.Symlink(self, filepath.Join(bin, filepath.Base(self))))
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("HOME", t.TempDir())

	r := wrappedWith(t, nil, []string{"--effects", filepath.Join(ws, "effects.yaml")}, filepath.Join(ws, "dbkit"),
		"--workspace", ws, "mcp", "enable", "claude", "--scope", "project")
	require.Equal(t, 0, r.ExitCode, "%+v", r)
	written, err := os.ReadFile(filepath.Join(ws, ".mcp.json"))
	require.NoError(t, err)
	var cfg struct {
		Servers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	require.NoError(t, json.Unmarshal(written, &cfg))
	require.Len(t, cfg.Servers, 1)
	for _, s := range cfg.Servers {
		assert.Equal(t, filepath.Base(self), s.Command)
		require.GreaterOrEqual(t, len(s.Args), 4, "%q", s.Args)
		assert.Equal(t, []string{"wrap", "--effects", "${CLAUDE_PROJECT_DIR:-.}/effects.yaml", "${CLAUDE_PROJECT_DIR:-.}/dbkit"}, s.Args[:4])
	}
	assert.NotContains(t, string(written), ws, "no path of this machine in a file every clone shares")

	elsewhere := filepath.Join(t.TempDir(), "effects.yaml")
	require.NoError(t, os.WriteFile(elsewhere, data, 0o644))
	r = wrappedWith(t, nil, []string{"--effects", elsewhere}, filepath.Join(ws, "dbkit"),
		"--workspace", ws, "mcp", "enable", "claude", "--scope", "project", "--name", "other")
	assert.NotEqual(t, 0, r.ExitCode, "%+v", r)
	assert.Contains(t, r.Stdout+r.Stderr, "neither inside the workspace")
}

// TestRedTeamWrappedDatabaseURLStaysInScope: dbkit's --url names its database file
// inside a URL (file:PATH); declared write-url (read-url for status), a file: URL
// outside the caller's scopes is refused before dbkit runs, for a reader and for a
// writer whose scope is the workspace, and no file is created outside; one inside
// the workspace, or a URL naming no local file, is not refused for its scope. A refusal
// names the URL as given and the path read from it.
func TestRedTeamWrappedDatabaseURLStaysInScope(t *testing.T) {
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	plain := outsidetest.Build(t, "dbkit-plain", outsidetest.DBKitPlain(root)).Exe("dbkit")
	effects := []string{"--effects", filepath.Join(root, "testdata", "effects", "dbkit.yaml")}
	ws, elsewhere := t.TempDir(), t.TempDir()
	call := func(scope, name, input string) tool.Output {
		t.Helper()
		r := wrappedWith(t, nil, effects, plain, "--workspace", ws, "call", name, "--input", input, "--scope", scope)
		var out tool.Output
		require.NoError(t, json.Unmarshal([]byte(r.Stdout), &out), "%+v", r)
		return out
	}
	up, err := filepath.Rel(ws, filepath.Join(elsewhere, "up.db"))
	require.NoError(t, err)
	for _, tc := range []struct{ scope, tool, url string }{
		{"read:.", "status", "file:" + filepath.Join(elsewhere, "app.db")},
		{"read:.", "status", "file://" + filepath.Join(elsewhere, "app.db")},
		{"read:.", "status", "file:" + up + "?mode=ro"},
		{"write:.", "create", "file:" + filepath.Join(elsewhere, "new.db")},
		{"write:.", "create", "sqlite:" + up},
		{"read:.", "create", "file:inside.db"},               // a reader may not write the workspace's either
		{"write:.", "create", "file:.cmdbridge/evidence.db"}, // cmdbridge's state, whatever the scopes
	} {
		out := call(tc.scope, tc.tool, `{"url":`+strconv.Quote(tc.url)+`}`)
		require.False(t, out.Success, "%s %s with %s was allowed: %v", tc.tool, tc.url, tc.scope, out.Data)
		assert.Equal(t, tool.CodeScopeDenied, out.Error.Code, "%s %s", tc.tool, tc.url)
		assert.Contains(t, out.Error.Message, strconv.Quote(tc.url), "the refusal names the URL the caller gave")
	}
	entries, err := os.ReadDir(elsewhere)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing was created outside the workspace")

	out := call("write:.", "create", `{"url":"file:inside.db"}`)
	assert.True(t, out.Success, "%+v", out.Error)
	assert.FileExists(t, filepath.Join(ws, "inside.db"))
	out = call("read:.", "status", `{"url":"file:inside.db"}`)
	if out.Error != nil {
		assert.NotEqual(t, tool.CodeScopeDenied, out.Error.Code, "%+v", out.Error)
	}
	out = call("read:.", "status", `{"url":"postgres://db.invalid/app"}`)
	if out.Error != nil {
		assert.NotEqual(t, tool.CodeScopeDenied, out.Error.Code, "a URL naming no local file is not a path: %+v", out.Error)
	}
}
