package v3bridge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	cliv2 "github.com/urfave/cli/v2"
	"github.com/urfave/cli/v3"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/internal/adopted"
	"github.com/cmdbridge/cmdbridge/internal/apptree"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/v3bridge"
)

// seen is what a run of the program's tree received.
type seen struct {
	Cmd  string
	Args []string
	Vals map[string]any
}

// kit is a v3 program of the shapes real ones have: flags on the root and on a group
// (v3 applies them to the subcommands), a local one, required and repeated flags, a
// map, declared arguments, a hidden command, and the help v3 adds.
func kit(got *seen) (root, bridge *cli.Command) {
	record := func(names ...string) cli.ActionFunc {
		return func(_ context.Context, cmd *cli.Command) error {
			got.Cmd, got.Args, got.Vals = cmd.FullName(), cmd.Args().Slice(), map[string]any{}
			for _, n := range names {
				if cmd.IsSet(n) {
					got.Vals[n] = cmd.Value(n)
				}
			}
			if p := cmd.StringArg("pattern"); p != "" {
				got.Vals["pattern"] = p // a declared argument: v3 takes it out of Args
			}
			return nil
		}
	}
	bridge = v3bridge.Command(nil)
	root = &cli.Command{
		Name: "kit", Usage: "a notes kit", Version: "1.2.3",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Value: "kit.yaml", Usage: "configuration file", Sources: cli.EnvVars("KIT_CONFIG"), TakesFile: true},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}},
		},
		Commands: []*cli.Command{
			{
				Name: "notes", Aliases: []string{"n"}, Usage: "work with notes",
				Flags: []cli.Flag{&cli.StringFlag{Name: "notebook", Value: "main"}},
				Commands: []*cli.Command{
					{
						Name: "add", Usage: "add a note", ArgsUsage: "TITLE [BODY]",
						Flags: []cli.Flag{
							&cli.StringSliceFlag{Name: "tag"},
							&cli.IntFlag{Name: "priority", Required: true},
							&cli.DurationFlag{Name: "remind", Value: 90 * time.Minute},
							&cli.StringMapFlag{Name: "meta"},
							&cli.BoolWithInverseFlag{Name: "pin", Value: true}, // --pin, --no-pin
						},
						Action: record("config", "verbose", "notebook", "tag", "priority", "remind", "meta", "pin"),
					},
					{
						Name: "pick", Usage: "pick a note by number, weighing it",
						Arguments: []cli.Argument{&cli.IntArg{Name: "number", Required: true}, &cli.FloatArgs{Name: "weight", Max: -1}},
						Action: func(_ context.Context, cmd *cli.Command) error {
							got.Cmd, got.Args = cmd.FullName(), cmd.Args().Slice()
							got.Vals = map[string]any{"number": cmd.IntArg("number"), "weight": cmd.FloatArgs("weight")}
							return nil
						},
					},
					{
						Name: "list", Usage: "list notes",
						Arguments: []cli.Argument{&cli.StringArg{Name: "pattern"}},
						Flags:     []cli.Flag{&cli.IntFlag{Name: "limit", Value: 20}},
						Action:    record("limit", "notebook"),
					},
				},
			},
			{Name: "debug", Hidden: true, Action: record()},
			bridge,
		},
	}
	return root, bridge
}

func served(t *testing.T) map[string]legacy.Command {
	t.Helper()
	return servedWith(t, legacy.TreeOptions{})
}

// servedWith is served with opts (their Meta is the manifest's).
func servedWith(t *testing.T, opts legacy.TreeOptions) map[string]legacy.Command {
	t.Helper()
	root, _ := kit(&seen{})
	var out bytes.Buffer
	root.Writer = &out
	require.NoError(t, root.Run(context.Background(), []string{"kit", "bridge", adopted.ManifestWord}))
	m, err := adopted.Decode(out.Bytes())
	require.NoError(t, err)
	opts.Meta = m.App.CommandMeta()
	cmds, err := legacy.FromApp(func() *cliv2.App { return apptree.Build(m.App, nil) }, opts)
	require.NoError(t, err)
	byName := map[string]legacy.Command{}
	for _, c := range cmds {
		byName[c.Name] = c
	}
	return byName
}

func TestServedCommands(t *testing.T) {
	cmds := served(t)
	var names []string
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	assert.Equal(t, []string{"notes:add", "notes:list", "notes:pick"}, names, "hidden, help and the bridge are not served")
}

// TestTakesFileIsAPath: a flag the program declares TakesFile is a path input, whatever
// its name: served with effects that leave it out, its tool warns of it (and not of a
// flag named otherwise that takes no file).
func TestTakesFileIsAPath(t *testing.T) {
	spec, err := adapter.Spec(servedWith(t, legacy.TreeOptions{Effects: map[string]legacy.Effects{"*": {}}})["notes:list"])
	require.NoError(t, err)
	var warned []string
	for _, w := range spec.Warnings {
		if strings.Contains(w, "is declared a file or directory by the program") {
			warned = append(warned, strings.Fields(w)[1])
		}
	}
	assert.Equal(t, []string{"config"}, warned, "%q", spec.Warnings)
}

func TestSchemaFromV3Types(t *testing.T) {
	s, err := adapter.Schema(served(t)["notes:add"])
	require.NoError(t, err)
	b, err := json.Marshal(s)
	require.NoError(t, err)
	var sch struct {
		Properties map[string]struct {
			Type    string          `json:"type"`
			Default json.RawMessage `json:"default"`
			Items   *struct {
				Type string `json:"type"`
			} `json:"items"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	require.NoError(t, json.Unmarshal(b, &sch))
	types := map[string]string{}
	for n, p := range sch.Properties {
		types[n] = p.Type
		if p.Items != nil {
			types[n] += "/" + p.Items.Type
		}
	}
	assert.Equal(t, map[string]string{
		"config": "string", "verbose": "boolean", "notebook": "string",
		"tag": "array/string", "priority": "integer", "remind": "string", "meta": "array/string",
		"pin": "boolean", "title": "string", "body": "string",
	}, types)
	assert.ElementsMatch(t, []string{"priority", "title"}, sch.Required)
	assert.JSONEq(t, `"kit.yaml"`, string(sch.Properties["config"].Default))
}

// TestTypedArguments: v3's numeric arguments are numbers in the schema (IntArg an
// integer, FloatArgs a list of numbers), string ones strings.
func TestTypedArguments(t *testing.T) {
	for tool, want := range map[string]map[string]string{
		"notes:pick": {"number": "integer", "weight": "array/number"},
		"notes:list": {"pattern": "string"},
	} {
		s, err := adapter.Schema(served(t)[tool])
		require.NoError(t, err, tool)
		for prop, typ := range want {
			p := s.Properties[prop]
			require.NotNil(t, p, "%s: %s", tool, prop)
			got := p.Type
			if p.Items != nil {
				got += "/" + p.Items.Type
			}
			assert.Equal(t, typ, got, "%s: %s", tool, prop)
		}
	}
	s, err := adapter.Schema(served(t)["notes:pick"])
	require.NoError(t, err)
	assert.Contains(t, s.Required, "number")
}

// TestArgvRunsTheProgram: the argv the host builds for an input is the call the
// program's own v3 tree runs.
func TestArgvRunsTheProgram(t *testing.T) {
	for _, tc := range []struct {
		tool, input string
		want        seen
	}{
		{"notes:add", `{"title":"hello","body":"b","priority":2,"tag":["x","y"],"notebook":"work","config":"c.yaml","verbose":true,"remind":"5m","meta":["k=v","a=b"],"pin":false}`,
			seen{Cmd: "kit notes add", Args: []string{"hello", "b"}, Vals: map[string]any{
				"priority": 2, "tag": []string{"x", "y"}, "notebook": "work", "config": "c.yaml", "verbose": true,
				"remind": 5 * time.Minute, "meta": map[string]string{"k": "v", "a": "b"}, "pin": false}}},
		{"notes:list", `{"limit":3,"pattern":"ab"}`, seen{Cmd: "kit notes list", Args: []string{}, Vals: map[string]any{"limit": 3, "pattern": "ab"}}},
		{"notes:pick", `{"number":-3,"weight":[1.5,2]}`, seen{Cmd: "kit notes pick", Args: []string{}, Vals: map[string]any{"number": -3, "weight": []float64{1.5, 2}}}},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			argv, err := adapter.Argv(served(t)[tc.tool], json.RawMessage(tc.input))
			require.NoError(t, err)
			var got seen
			root, _ := kit(&got)
			require.NoError(t, root.Run(context.Background(), append([]string{"kit"}, argv...)), "argv %q", argv)
			assert.Equal(t, tc.want, got, "argv %q", argv)
		})
	}
}

// TestManifestHoldsNoEnvironment: a flag's value read from its sources never reaches
// the manifest; the declared default does.
func TestManifestHoldsNoEnvironment(t *testing.T) {
	t.Setenv("KIT_CONFIG", "s3cret.yaml")
	root, _ := kit(&seen{})
	var out bytes.Buffer
	root.Writer = &out
	require.NoError(t, root.Run(context.Background(), []string{"kit", "bridge", adopted.ManifestWord}))
	assert.NotContains(t, out.String(), "s3cret")
	assert.Contains(t, out.String(), `"kit.yaml"`)
}

func ExampleCommand() {
	cmd := &cli.Command{Name: "kit"}
	cmd.Commands = append(cmd.Commands, v3bridge.Command(nil)) // the one added line
	fmt.Println(cmd.Commands[0].Name)
	// Output: bridge
}
