package scaffold

import (
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func TestNamingDisambiguatesWithinADomain(t *testing.T) {
	all := []Located{
		{Name: "initiative:create", Domain: "initiative"}, {Name: "plan:create", Domain: "initiative"},
		{Name: "wu:status", Domain: "wu"}, {Name: "wu:unlock-lane", Domain: "wu"},
		{Name: "mem:checkpoint", Domain: "memory"}, {Name: "doctor", Domain: "workspace"},
	}
	got := naming(all, newInitialisms([]string{"wu"}))
	cases := map[string][3]string{
		"initiative:create": {"initiative_create", "CreateInput", "runCreate"},
		"plan:create":       {"plan_create", "PlanCreateInput", "runPlanCreate"},
		"wu:status":         {"wu_status", "StatusInput", "runStatus"},
		"wu:unlock-lane":    {"wu_unlock_lane", "UnlockLaneInput", "runUnlockLane"},
		"mem:checkpoint":    {"mem_checkpoint", "CheckpointInput", "runCheckpoint"},
		"doctor":            {"doctor", "DoctorInput", "runDoctor"},
	}
	for name, want := range cases {
		assert.Equal(t, want, got[name], name)
	}
}

func TestKeywordsRejectWhatTheScaffoldCannotReproduce(t *testing.T) {
	cases := []struct {
		name   string
		schema *jsonschema.Schema
		want   []string
		err    string
	}{
		{"plain", &jsonschema.Schema{Type: "string", Description: "d"}, nil, ""},
		{"uint list", &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(0.0)}},
			[]string{"Items.Minimum"}, ""},
		{"default and enum", &jsonschema.Schema{Type: "string", Default: []byte(`"a"`), Enum: []any{"a", "b"}},
			[]string{"Default", "Enum"}, ""},
		{"unsupported", &jsonschema.Schema{Type: "string", Const: jsonschema.Ptr[any]("x")}, nil, `keyword "const"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ks, err := keywords(c.schema, "")
			if c.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.err)
				return
			}
			require.NoError(t, err)
			var paths []string
			for _, k := range ks {
				paths = append(paths, k.Path)
			}
			assert.Equal(t, c.want, paths)
		})
	}
}

func TestArgvInputMatchesTheAdapterMapping(t *testing.T) {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
		"id":      {Type: "string"},
		"times":   {Type: "integer"},
		"force":   {Type: "boolean"},
		"tag":     {Type: "array", Items: &jsonschema.Schema{Type: "string"}},
		"command": {Type: "array", Items: &jsonschema.Schema{Type: "string"}},
	}, PropertyOrder: []string{"id", "times", "force", "tag", "command"}}
	app := newTestApp("[<ID>] [-- COMMAND...]", "id", "times", "force", "tag")
	in, err := argvInput(app, s, []string{"WU-1", "--json", "--times=2", "--force", "--tag", "a", "--tag", "b", "--", "sh", "-c", "x"})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"id": "WU-1", "times": int64(2), "force": true,
		"tag": []any{"a", "b"}, "command": []any{"sh", "-c", "x"}}, in)
	_, err = argvInput(app, s, []string{"--help"})
	assert.ErrorContains(t, err, "help")
	_, err = argvInput(app, s, []string{"--bogus"})
	assert.ErrorContains(t, err, "unknown flag")
	_, err = argvInput(app, s, []string{"--times", "many"})
	assert.ErrorContains(t, err, "not an integer")
}

func TestScriptWordsKeepVariablesUnquoted(t *testing.T) {
	words := scriptWords(`exec delivery file:read --path $WORK/a.txt 'it''s' # comment`)
	require.Len(t, words, 6)
	assert.Equal(t, "it's", words[5])
	assert.Equal(t, `'"'$WORK'/a.txt"'`, quoteWord(`"`+words[4]+`"`))
}

func newTestApp(argsUsage string, flags ...string) *cli.App {
	app := &cli.App{ArgsUsage: argsUsage}
	for _, f := range flags {
		app.Flags = append(app.Flags, &cli.StringFlag{Name: f})
	}
	return app
}

func TestFindLeafMatchesThePath(t *testing.T) {
	d := &discovery{leaves: []leafLit{
		{name: "add", parents: []string{"notes"}, line: 1},
		{name: "add", parents: []string{"tasks"}, line: 2},
		{name: "add", line: 3}, // declared by a constructor of its own
		{name: "list", parents: []string{"notes"}, line: 4},
		{name: "list", parents: []string{"tasks"}, line: 5},
	}}
	for _, tc := range []struct {
		path []string
		line int // 0: no answer
	}{
		{[]string{"notes", "add"}, 1},
		{[]string{"tasks", "add"}, 2},
		{[]string{"add"}, 3},
		{[]string{"other", "list"}, 0}, // two equally good candidates
		{[]string{"remove"}, 0},
	} {
		l, ok := d.findLeaf(tc.path)
		assert.Equal(t, tc.line != 0, ok, "%v", tc.path)
		if ok {
			assert.Equal(t, tc.line, l.line, "%v", tc.path)
		}
	}
}

func TestFindTreeByProgram(t *testing.T) {
	one := &discovery{trees: []treeReg{{program: ""}}}
	_, ok := one.findTree("gizmo")
	assert.True(t, ok, "the only tree is the one")
	two := &discovery{trees: []treeReg{{program: "gizmo", Located: Located{Line: 1}}, {program: "other", Located: Located{Line: 2}}}}
	tr, ok := two.findTree("other")
	require.True(t, ok)
	assert.Equal(t, 2, tr.Line)
	_, ok = two.findTree("third")
	assert.False(t, ok)
}

func TestCommandArgsOfTreeLeavesAndCommands(t *testing.T) {
	leaf := legacy.Command{Name: "notes:add", Program: "gizmo", Path: []string{"notes", "add"}}
	args, ok := commandArgs(scriptWords(`exec gizmo --upper notes add --text 'a b'`), leaf)
	require.True(t, ok)
	assert.Equal(t, []string{"--upper", "--text", "a b"}, args)
	_, ok = commandArgs(scriptWords(`exec gizmo notes list --input x`), leaf)
	assert.False(t, ok, "another leaf")
	_, ok = commandArgs(scriptWords(`exec other notes add`), leaf)
	assert.False(t, ok, "another program")
	flat := legacy.Command{Name: "wu:status"}
	args, ok = commandArgs(scriptWords(`exec delivery wu:status --id WU-1`), flat)
	require.True(t, ok)
	assert.Equal(t, []string{"--id", "WU-1"}, args)
}
