package cmdbridge_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge"
	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/host"
	"github.com/cmdbridge/cmdbridge/internal/outsidetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// dbkitEffects is the Config of the declared dbkit build: Go for most commands, YAML for
// load, wait declared nowhere.
const dbkitEffects = `&cmdbridge.Config{
	Effects: map[string]cmdbridge.Effects{
		"status":                {ReadOnly: true, Idempotent: true},
		"drop":                  {Destructive: true},
		"{up,migrate,rollback}": {Destructive: true},
		"{new,create,dump}":     {},
	},
	EffectsYAML: []byte("effects:\n  load: {read_only: true}\n"),
}`

// dbkit builds testdata/dbkit adopted in one line with the Config expression cfg.
func dbkit(t *testing.T, key, cfg string) string {
	t.Helper()
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	return outsidetest.Build(t, key, outsidetest.DBKit(root, cfg)).Exe("dbkit")
}

// dbWorkspace is a workspace holding dbkit's database db.txt (one migration applied).
func dbWorkspace(t *testing.T) string {
	ws := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(ws, "db.txt"), []byte("0001_init.sql\n"), 0o644))
	return ws
}

const dbInput = `{"url":"file:db.txt"}`

// listed is `bridge tools list --json` (with extra arguments): name → warnings.
func listed(t *testing.T, exe, ws string, extra ...string) (map[string][]string, run) {
	t.Helper()
	r := runIn(t, ws, "", exe, append([]string{"bridge", "--workspace", ws, "tools", "list", "--json"}, extra...)...)
	if r.ExitCode != 0 {
		return nil, r
	}
	var rows []struct {
		Name     string   `json:"name"`
		Warnings []string `json:"warnings"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.Stdout), &rows), r.Stdout)
	out := map[string][]string{}
	for _, row := range rows {
		out[row.Name] = row.Warnings
	}
	return out, r
}

// TestEffectsUndeclaredDropAsks: dbkit adopted with nothing declared serves every
// command as destructive. Under the default policy a call of drop is refused with
// APPROVAL_REQUIRED when nobody can answer (the command line without --interactive,
// HTTP), refused when the person says no, and runs when they say yes; tools list and status warn about every command and say how to
// declare; the read-only profile selects nothing.
func TestEffectsUndeclaredDropAsks(t *testing.T) {
	exe := dbkit(t, "dbkit", "nil")
	ws := dbWorkspace(t)
	db := filepath.Join(ws, "db.txt")

	call := func(stdin string, args ...string) callOutput {
		r := runIn(t, ws, stdin, exe, append([]string{"bridge", "--workspace", ws, "call", "drop", "--input", dbInput}, args...)...)
		var out callOutput
		require.NoError(t, json.Unmarshal([]byte(r.Stdout), &out), "%+v", r)
		return out
	}
	out := call("")
	require.False(t, out.Success)
	assert.Equal(t, "APPROVAL_REQUIRED", out.Error.Code)
	assert.Contains(t, out.Error.Message, "default-destructive-ask")
	assert.Contains(t, out.Error.Message, "declare that in the program (cmdbridge.Config.Effects", "the refusal says how to stop asking for good")
	assert.FileExists(t, db, "nothing ran")

	writer := runIn(t, ws, "", exe, "bridge", "--workspace", ws, "token", "mint", "--subject", "agent", "--tools", "*", "--write", ".")
	require.Equal(t, 0, writer.ExitCode, "%+v", writer)
	url, stop := serve(t, entry{argv: func(outside) []string { return []string{exe, "bridge"} }}, outside{}, ws)
	t.Cleanup(stop)
	out = postInput(t, url, strings.TrimSpace(writer.Stdout), "drop", dbInput)
	require.False(t, out.Success)
	assert.Equal(t, "APPROVAL_REQUIRED", out.Error.Code, "over HTTP too")
	assert.FileExists(t, db)

	out = call("n\n", "--interactive")
	require.False(t, out.Success)
	assert.Equal(t, "APPROVAL_DENIED", out.Error.Code)
	assert.FileExists(t, db)

	out = call("y\n", "--interactive")
	require.True(t, out.Success, "%+v", out.Error)
	assert.NoFileExists(t, db, "approved, drop ran")

	tools, r := listed(t, exe, ws)
	require.NotNil(t, tools, "%+v", r)
	assert.Contains(t, tools, "drop")
	for name, warnings := range tools {
		assert.Contains(t, warnings, adapter.UndeclaredWarning, name)
	}
	text := runIn(t, ws, "", exe, "bridge", "--workspace", ws, "tools", "list")
	assert.Contains(t, text.Stdout, "drop: "+adapter.UndeclaredWarning)
	status := runIn(t, ws, "", exe, "bridge", "--workspace", ws, "status")
	assert.Contains(t, status.Stdout, "drop: "+adapter.UndeclaredWarning, "%+v", status)

	_, r = listed(t, exe, ws, "--profile", "read-only")
	assert.NotEqual(t, 0, r.ExitCode, "nothing is declared read-only: %+v", r)
}

// TestEffectsDeclaredFollowProfilesAndScopes: dbkit adopted with its effects declared
// (Go and YAML): the read-only profile selects exactly the read-only commands; over
// HTTP a token with read scopes only calls status and is refused SCOPE_DENIED on drop and
// on wait (declared nowhere), while a writing token's drop still needs approval; only
// wait is listed undeclared.
func TestEffectsDeclaredFollowProfilesAndScopes(t *testing.T) {
	exe := dbkit(t, "dbkit-effects", dbkitEffects)
	ws := dbWorkspace(t)

	ro, r := listed(t, exe, ws, "--profile", "read-only")
	require.NotNil(t, ro, "%+v", r)
	var names []string
	for name := range ro {
		names = append(names, name)
	}
	sort.Strings(names)
	assert.Equal(t, []string{"load", "status"}, names)

	all, r := listed(t, exe, ws)
	require.NotNil(t, all, "%+v", r)
	var undeclared []string
	for name, warnings := range all {
		for _, w := range warnings {
			if w == adapter.UndeclaredWarning {
				undeclared = append(undeclared, name)
			}
		}
	}
	assert.Equal(t, []string{"wait"}, undeclared)

	mint := func(scope ...string) string {
		r := runIn(t, ws, "", exe, append([]string{"bridge", "--workspace", ws, "token", "mint", "--subject", "agent", "--tools", "*"}, scope...)...)
		require.Equal(t, 0, r.ExitCode, "%+v", r)
		return strings.TrimSpace(r.Stdout)
	}
	reader, writer := mint("--read", "."), mint("--write", ".")
	url, stop := serve(t, entry{argv: func(outside) []string { return []string{exe, "bridge"} }}, outside{}, ws)
	defer stop()
	post := func(token, name string) callOutput { return postInput(t, url, token, name, dbInput) }
	out := post(reader, "status")
	require.True(t, out.Success, "%+v", out.Error)
	assert.Contains(t, string(out.Data), "Applied: 0")
	for _, name := range []string{"drop", "wait"} {
		out = post(reader, name)
		require.False(t, out.Success, name)
		assert.Equal(t, "SCOPE_DENIED", out.Error.Code, name)
	}
	out = post(writer, "drop")
	require.False(t, out.Success)
	assert.Equal(t, "APPROVAL_REQUIRED", out.Error.Code)
	assert.FileExists(t, filepath.Join(ws, "db.txt"))
}

// TestRedTeamWorkspaceCannotLoosenEffects: effects are the program's declaration. A
// workspace whose .cmdbridge/config.yaml declares drop read-only (to escape approval,
// and to reach it with read-only tokens and profiles) is refused before anything runs,
// with a message saying how a workspace makes a tool stricter; drop's database is
// untouched.
func TestRedTeamWorkspaceCannotLoosenEffects(t *testing.T) {
	exe := dbkit(t, "dbkit-effects", dbkitEffects)
	ws := dbWorkspace(t)
	require.NoError(t, os.MkdirAll(filepath.Join(ws, ".cmdbridge"), 0o755))
	for _, config := range []string{
		"effects: {drop: {read_only: true}}\n",
		"policy: []\neffects:\n  \"*\": {read_only: true}\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(ws, ".cmdbridge", "config.yaml"), []byte(config), 0o644))
		r := runIn(t, ws, "", exe, "bridge", "--workspace", ws, "call", "drop", "--input", dbInput)
		assert.NotEqual(t, 0, r.ExitCode, "%+v", r)
		assert.Contains(t, r.Stdout+r.Stderr, "effects are declared by the program", "%+v", r)
		assert.FileExists(t, filepath.Join(ws, "db.txt"))
		_, r = listed(t, exe, ws, "--profile", "read-only")
		assert.NotEqual(t, 0, r.ExitCode, "%+v", r)
	}
}

// postInput posts input to the tool name of the server at url with a bearer token.
func postInput(t *testing.T, url, token, name, input string) callOutput {
	t.Helper()
	req, err := http.NewRequest("POST", url+"/tools/"+name, strings.NewReader(input))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var out callOutput
	require.NoError(t, json.Unmarshal(body, &out), string(body))
	return out
}

// effectsApp is a migration tool's tree for the in-process tests.
func effectsApp() *cli.App {
	ok := func(*cli.Context) error { return nil }
	return &cli.App{Name: "db", Writer: io.Discard, Commands: []*cli.Command{
		{Name: "status", Action: ok},
		{Name: "drop", Action: ok},
		{Name: "migrate", Subcommands: []*cli.Command{
			{Name: "up", Flags: []cli.Flag{&cli.BoolFlag{Name: "dry-run"}}, Action: ok},
			{Name: "down", Action: ok},
		}},
	}}
}

// manifest is `db bridge tools manifest` of effectsApp adopted with cfg, in process.
func manifest(t *testing.T, cfg *cmdbridge.Config) (string, error) {
	t.Helper()
	app := effectsApp()
	var out, errb bytes.Buffer
	app.Writer, app.ErrWriter = &out, &errb
	app.ExitErrHandler = func(*cli.Context, error) {}
	app.Commands = append(app.Commands, host.Command(&host.Config{Config: *cfg})) // in this process
	err := app.Run([]string{"db", "bridge", "--workspace", t.TempDir(), "tools", "manifest"})
	if err != nil {
		return err.Error() + errb.String(), err
	}
	return out.String(), nil
}

// TestEffectsGoAndYAMLDeclareAlike: the same effects declared in Go and in YAML give
// the same manifest (annotations and input effects); a key declared in both is an error.
func TestEffectsGoAndYAMLDeclareAlike(t *testing.T) {
	inGo, err := manifest(t, &cmdbridge.Config{Effects: map[string]cmdbridge.Effects{
		"status":     {ReadOnly: true, Idempotent: true},
		"drop":       {Destructive: true},
		"migrate:*":  {Destructive: true, OpenWorld: true},
		"migrate:up": {Destructive: true, OpenWorld: true, Inputs: []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run"))}},
	}})
	require.NoError(t, err, inGo)
	inYAML, err := manifest(t, &cmdbridge.Config{EffectsYAML: []byte(`
effects:
  status: {read_only: true, idempotent: true}
  drop: {destructive: true}
  "migrate:*": {destructive: true, open_world: true}
  migrate:up:
    destructive: true
    open_world: true
    inputs: [{when: [{property: dry_run, is: set}], read_only: true}]
`)})
	require.NoError(t, err, inYAML)
	assert.Equal(t, inGo, inYAML)
	var m struct {
		Tools []struct {
			Name        string           `json:"name"`
			Annotations tool.Annotations `json:"annotations"`
			Effects     []tool.Effect    `json:"effects"`
			Warnings    []string         `json:"warnings"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal([]byte(inGo), &m))
	kinds := map[string]string{}
	for _, tl := range m.Tools {
		kinds[tl.Name] = tl.Annotations.Kind()
		assert.NotContains(t, tl.Warnings, adapter.UndeclaredWarning, tl.Name)
		if tl.Name == "migrate:up" {
			assert.Equal(t, []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run"))}, tl.Effects)
		}
	}
	assert.Equal(t, map[string]string{"status": "read_only", "drop": "destructive", "migrate:up": "destructive", "migrate:down": "destructive"}, kinds)

	msg, err := manifest(t, &cmdbridge.Config{
		Effects:     map[string]cmdbridge.Effects{"drop": {Destructive: true}},
		EffectsYAML: []byte("effects: {drop: {}}"),
	})
	require.Error(t, err)
	assert.Contains(t, msg, `"drop" is declared in both Effects and EffectsYAML`)
}
