package legacy_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// dbTree is a migration tool's tree: status, drop, dump, wait, migrate up/down.
func dbTree() *cli.App {
	ok := func(*cli.Context) error { return nil }
	return &cli.App{Name: "db", Commands: []*cli.Command{
		{Name: "status", Action: ok},
		{Name: "drop", Action: ok},
		{Name: "dump", Action: ok},
		{Name: "wait", Action: ok},
		{Name: "migrate", Subcommands: []*cli.Command{
			{Name: "up", Flags: []cli.Flag{&cli.BoolFlag{Name: "dry-run"}}, Action: ok},
			{Name: "down", Action: ok},
		}},
	}}
}

// specs derives the tree's tools with opts and returns them by name.
func specs(t *testing.T, newApp func() *cli.App, opts legacy.TreeOptions) map[string]tool.Spec {
	t.Helper()
	cs, err := legacy.FromApp(newApp, opts)
	require.NoError(t, err)
	out := map[string]tool.Spec{}
	for _, c := range cs {
		s, err := adapter.Spec(c)
		require.NoError(t, err, c.Name)
		out[c.Name] = s
	}
	return out
}

// TestTreeEffectsPrecedence: a tool's own name wins over globs, the glob with the most
// literal characters over the others; input effects narrow a declared tool; a leaf
// declared nowhere is destructive and open world, with a warning saying how to declare
// it, and only it.
func TestTreeEffectsPrecedence(t *testing.T) {
	got := specs(t, dbTree, legacy.TreeOptions{Effects: map[string]legacy.Effects{
		"status":     {ReadOnly: true, Idempotent: true},
		"d*":         {}, // drop and dump write...
		"drop":       {Destructive: true},
		"migrate:*":  {Destructive: true, Inputs: []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run"))}},
		"**":         {Destructive: true, RunsCode: true, OpenWorld: true}, // ...the least specific loses
		"migrate:d*": {Destructive: true, Network: true},
	}})
	kinds := map[string]string{}
	for name, s := range got {
		kinds[name] = s.Annotations.Kind()
	}
	assert.Equal(t, map[string]string{
		"status": "read_only", "drop": "destructive", "dump": "write", "wait": "runs_code",
		"migrate:up": "destructive", "migrate:down": "destructive",
	}, kinds)
	assert.True(t, got["status"].Annotations.IdempotentHint)
	assert.True(t, got["migrate:down"].Annotations.OpenWorldHint, "network implies open world")
	assert.True(t, got["migrate:down"].Network)
	up := got["migrate:up"]
	a, i := up.EffectOf(map[string]any{"dry_run": true})
	assert.Equal(t, 0, i)
	assert.True(t, a.ReadOnlyHint, "a dry run is read-only")
	for name, s := range got {
		assert.NotContains(t, s.Warnings, adapter.UndeclaredWarning, name)
	}

	bare := specs(t, dbTree, legacy.TreeOptions{Effects: map[string]legacy.Effects{"status": {ReadOnly: true}}})
	for name, s := range bare {
		if name == "status" {
			assert.Equal(t, "read_only", s.Annotations.Kind())
			assert.NotContains(t, s.Warnings, adapter.UndeclaredWarning)
			continue
		}
		assert.Equal(t, tool.Annotations{DestructiveHint: true, OpenWorldHint: true}, s.Annotations, name)
		assert.Contains(t, s.Warnings, adapter.UndeclaredWarning, name)
	}
}

// TestTreeEffectsWarnOfUndeclaredPaths: a declared leaf whose string input is named like
// a file or directory (data_dir, schema_file, a <file> positional), or that the program
// declares one (a PathFlag, TakesFile), and is not in its paths gets a warning naming it, as the kernel passes it as given; declared read,
// write or none (a path recorded, never opened), it gets none, and so does every
// input of a leaf declared nowhere (it has the undeclared warning, and is the worst
// case).
func TestTreeEffectsWarnOfUndeclaredPaths(t *testing.T) {
	ok := func(*cli.Context) error { return nil }
	tree := func() *cli.App {
		return &cli.App{Name: "db", Flags: []cli.Flag{&cli.StringFlag{Name: "data-dir"}}, Commands: []*cli.Command{
			{Name: "dump", ArgsUsage: "<file>", Flags: []cli.Flag{
				&cli.StringFlag{Name: "schema-file"}, &cli.StringSliceFlag{Name: "code-paths"},
				&cli.BoolFlag{Name: "with-paths"}, &cli.StringFlag{Name: "profile"},
				// Paths by the program's declaration, whatever their names.
				&cli.PathFlag{Name: "src"}, &cli.StringFlag{Name: "notebook", TakesFile: true}}, Action: ok},
			{Name: "load", Action: ok},
		}}
	}
	warned := func(s tool.Spec) []string {
		var out []string
		for _, w := range s.Warnings {
			if strings.Contains(w, "is named like a path") || strings.Contains(w, "is declared a file or directory by the program") {
				out = append(out, strings.Fields(w)[1])
			}
		}
		return out
	}
	got := specs(t, tree, legacy.TreeOptions{Effects: map[string]legacy.Effects{"*": {}}})
	assert.Equal(t, []string{"code_paths", "data_dir", "file", "notebook", "schema_file", "src"}, warned(got["dump"]))
	assert.Contains(t, got["dump"].Warnings[0], "declare it read, write or none")

	got = specs(t, tree, legacy.TreeOptions{Effects: map[string]legacy.Effects{
		"dump": {Paths: map[string]string{"data_dir": "read", "file": "write", "schema_file": "write", "code_paths": "none", "src": "read", "notebook": "none"}},
		"load": {ReadOnly: true, Paths: map[string]string{"data_dir": "read"}},
	}})
	for name, s := range got {
		assert.Empty(t, warned(s), name)
	}
	assert.ElementsMatch(t, []tool.PathInput{{Property: "data_dir", Access: tool.Read}, {Property: "file", Access: tool.Write},
		{Property: "schema_file", Access: tool.Write}, {Property: "src", Access: tool.Read}}, got["dump"].Paths, "none declares no path input")

	for name, s := range specs(t, tree, legacy.TreeOptions{}) {
		assert.Empty(t, warned(s), name)
		assert.Contains(t, s.Warnings, adapter.UndeclaredWarning, name)
	}

	_, err := legacy.FromApp(tree, legacy.TreeOptions{Effects: map[string]legacy.Effects{"dump": {Paths: map[string]string{"file": "maybe"}}}})
	assert.ErrorContains(t, err, `access "maybe" is not read, write, read-url, write-url or none`)
}

// TestTreeEffectsOfAnAppWithoutSubcommands: an app that is one tool declares itself in
// its Metadata, which a glob does not override but its own name does.
func TestTreeEffectsOfAnAppWithoutSubcommands(t *testing.T) {
	app := func() *cli.App {
		return &cli.App{Name: "hello", Metadata: map[string]any{legacy.MetaReadOnly: true},
			Action: func(*cli.Context) error { return nil }}
	}
	assert.Equal(t, "read_only", specs(t, app, legacy.TreeOptions{Effects: map[string]legacy.Effects{"*": {Destructive: true}}})["hello"].Annotations.Kind())
	assert.Equal(t, "destructive", specs(t, app, legacy.TreeOptions{Effects: map[string]legacy.Effects{"hello": {Destructive: true}}})["hello"].Annotations.Kind())
}

// TestTreeEffectsRefusals: a declaration that names no tool, two equally specific globs
// that disagree, and impossible combinations fail the tree, naming what is wrong.
func TestTreeEffectsRefusals(t *testing.T) {
	for _, tc := range []struct {
		name    string
		effects map[string]legacy.Effects
		want    string
	}{
		{"typo", map[string]legacy.Effects{"stauts": {ReadOnly: true}}, `effects for stauts: no command of the tree is named so`},
		{"tie", map[string]legacy.Effects{"migrate:u*": {}, "migrate:*p": {Destructive: true}}, `"migrate:*p" and "migrate:u*" match it as specifically`},
		{"read-only destructive", map[string]legacy.Effects{"drop": {ReadOnly: true, Destructive: true}}, "read-only and destructive"},
		{"read-only runs code", map[string]legacy.Effects{"drop": {ReadOnly: true, RunsCode: true}}, "read-only but runs workspace code"},
		{"bad glob", map[string]legacy.Effects{"[": {}}, "not a tool name or doublestar glob"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := legacy.FromApp(dbTree, legacy.TreeOptions{Effects: tc.effects})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	// Equally specific globs that agree are one declaration.
	_, err := legacy.FromApp(dbTree, legacy.TreeOptions{Effects: map[string]legacy.Effects{"migrate:u*": {}, "migrate:*p": {}}})
	assert.NoError(t, err)
}

// TestParseEffectsIsTheGoTable: the YAML form reads into the same table as the Go one,
// conditions included, and refuses unknown keys.
func TestParseEffectsIsTheGoTable(t *testing.T) {
	got, err := legacy.ParseEffects([]byte(`
effects:
  status: {read_only: true, idempotent: true}
  drop: {destructive: true}
  dump: {}
  "migrate:*":
    destructive: true
    open_world: true
    inputs:
      - {when: [{property: dry_run, is: set}], read_only: true}
      - {when: [{property: mode, is: equals, value: safe}]}
`))
	require.NoError(t, err)
	assert.Equal(t, map[string]legacy.Effects{
		"status": {ReadOnly: true, Idempotent: true},
		"drop":   {Destructive: true},
		"dump":   {},
		"migrate:*": {Destructive: true, OpenWorld: true, Inputs: []tool.Effect{
			tool.ReadOnlyWhen(tool.IsSet("dry_run")), tool.WritesWhen(tool.IsEqual("mode", "safe")),
		}},
	}, got)

	for _, bad := range []string{"effects: {status: {readonly: true}}", "effect: {status: {}}", "effects: [status]"} {
		_, err := legacy.ParseEffects([]byte(bad))
		assert.Error(t, err, bad)
	}
}

// TestTreeEffectsDeclarePaths: an effect naming a tree's path inputs makes them the
// tool's paths (held to the caller's scopes by the kernel), from Go and from YAML; an
// access that is not read or write, a written path of a read-only command and a path
// that is no input are errors.
func TestTreeEffectsDeclarePaths(t *testing.T) {
	dumpTree := func() *cli.App {
		app := dbTree()
		app.Flags = []cli.Flag{&cli.StringFlag{Name: "data-dir"}}
		app.Commands[2].Flags = []cli.Flag{&cli.StringFlag{Name: "output"}}
		return app
	}
	table, err := legacy.ParseEffects([]byte(`
effects:
  status: {read_only: true, paths: {data_dir: read}}
  dump: {paths: {data_dir: read, output: write}}
  "**": {destructive: true}
`))
	require.NoError(t, err)
	got := specs(t, dumpTree, legacy.TreeOptions{Effects: table})
	assert.Equal(t, []tool.PathInput{{Property: "data_dir", Access: tool.Read}}, got["status"].Paths)
	assert.ElementsMatch(t, []tool.PathInput{{Property: "data_dir", Access: tool.Read}, {Property: "output", Access: tool.Write}}, got["dump"].Paths)
	assert.Empty(t, got["drop"].Paths, "a command whose effect names no path has none")
	urls := specs(t, dumpTree, legacy.TreeOptions{Effects: map[string]legacy.Effects{
		"dump": {Paths: map[string]string{"data_dir": "read-url", "output": "write-url"}}, "**": {}}})
	assert.ElementsMatch(t, []tool.PathInput{{Property: "data_dir", Access: tool.Read, URL: true}, {Property: "output", Access: tool.Write, URL: true}},
		urls["dump"].Paths, "a URL input is read or written through its file: URLs")

	for want, effects := range map[string]map[string]legacy.Effects{
		`access "exec" is not read, write, read-url, write-url or none`: {"dump": {Paths: map[string]string{"output": "exec"}}},
		"read-only but path input output is written":                    {"dump": {ReadOnly: true, Paths: map[string]string{"output": "write"}}},
		"read-only but path input data_dir is written":                  {"dump": {ReadOnly: true, Paths: map[string]string{"data_dir": "write-url"}}},
	} {
		_, err := legacy.FromApp(dumpTree, legacy.TreeOptions{Effects: effects})
		require.Error(t, err, want)
		assert.Contains(t, err.Error(), want)
	}
	cs, err := legacy.FromApp(dumpTree, legacy.TreeOptions{Effects: map[string]legacy.Effects{"status": {ReadOnly: true, Paths: map[string]string{"nope": "read"}}, "**": {}}})
	require.NoError(t, err)
	for _, c := range cs {
		if c.Name == "status" {
			_, err := adapter.Spec(c)
			assert.ErrorContains(t, err, `path input "nope" is not an input property`)
		}
	}
}
