package cobrabridge_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/cobrabridge"
	"github.com/cmdbridge/cmdbridge/internal/adopted"
	"github.com/cmdbridge/cmdbridge/internal/apptree"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// seen is what a run of the program's tree received.
type seen struct {
	Cmd  string
	Args []string
	Vals map[string]string
}

// kit is a cobra program of the shapes real ones have: persistent flags on the root
// and on a group, a hook, required and repeated flags, a map, a count, a flag with an
// optional value, a hidden and a deprecated command, cobra's help and completion.
func kit(got *seen) (root, bridge *cobra.Command) {
	record := func(cmd *cobra.Command, args []string) error {
		got.Cmd, got.Args, got.Vals = cmd.CommandPath(), args, map[string]string{}
		cmd.Flags().Visit(func(f *pflag.Flag) { got.Vals[f.Name] = f.Value.String() })
		return nil
	}
	root = &cobra.Command{Use: "kit", Short: "a notes kit", Version: "1.2.3",
		PersistentPreRunE: func(*cobra.Command, []string) error { return nil }}
	root.PersistentFlags().String("config", "kit.yaml", "configuration file")
	root.PersistentFlags().CountP("verbose", "v", "more output")
	notes := &cobra.Command{Use: "notes", Aliases: []string{"n"}, Short: "work with notes"}
	notes.PersistentFlags().String("notebook", "main", "notebook to use")
	add := &cobra.Command{Use: "add <title> [body]", Short: "add a note", RunE: record}
	add.Flags().StringSlice("tag", nil, "tag the note")
	add.Flags().Int("priority", 0, "priority")
	_ = add.MarkFlagRequired("priority")
	add.Flags().Duration("remind", 90*time.Minute, "remind after")
	add.Flags().StringToString("meta", nil, "metadata")
	add.Flags().String("color", "", "colour the note")
	add.Flags().Lookup("color").NoOptDefVal = "auto"
	add.Flags().Bool("pin", true, "pin the note")
	list := &cobra.Command{Use: "list", Short: "list notes", RunE: record}
	list.Flags().Int("limit", 20, "at most this many")
	notes.AddCommand(add, list)
	hidden := &cobra.Command{Use: "debug", Hidden: true, RunE: record}
	old := &cobra.Command{Use: "old", Deprecated: "use notes list", RunE: record}
	bridge = cobrabridge.Command(nil)
	root.AddCommand(notes, hidden, old, bridge)
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	return root, bridge
}

// served is what the host makes of the manifest: the tree's leaves as it serves them.
func served(t *testing.T, root, bridge *cobra.Command) map[string]legacy.Command {
	t.Helper()
	return servedWith(t, root, legacy.TreeOptions{})
}

// servedWith is served with opts.
func servedWith(t *testing.T, root *cobra.Command, opts legacy.TreeOptions) map[string]legacy.Command {
	t.Helper()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetArgs([]string{"bridge", adopted.ManifestWord})
	require.NoError(t, root.Execute())
	m, err := adopted.Decode(out.Bytes())
	require.NoError(t, err)
	cmds, err := legacy.FromApp(func() *cli.App { return apptree.Build(m.App, nil) }, opts)
	require.NoError(t, err)
	byName := map[string]legacy.Command{}
	for _, c := range cmds {
		byName[c.Name] = c
	}
	return byName
}

func TestServedCommands(t *testing.T) {
	root, bridge := kit(&seen{})
	cmds := served(t, root, bridge)
	var names []string
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	assert.Equal(t, []string{"notes:add", "notes:list"}, names, "hidden, deprecated, help, completion and the bridge are not served")
	assert.Equal(t, []string{"n:add"}, cmds["notes:add"].Aliases)
}

// TestMarkedFilesArePaths: flags marked with MarkFlagFilename or MarkFlagDirname are
// path inputs, whatever their names: served with effects that leave them out, the tool
// warns of them (and not of the flags marked neither way).
func TestMarkedFilesArePaths(t *testing.T) {
	root, _ := kit(&seen{})
	require.NoError(t, root.MarkPersistentFlagFilename("config", "yaml"))
	notes, _, err := root.Find([]string{"notes"})
	require.NoError(t, err)
	require.NoError(t, notes.MarkPersistentFlagDirname("notebook"))
	spec, err := adapter.Spec(servedWith(t, root, legacy.TreeOptions{Effects: map[string]legacy.Effects{"*": {}}})["notes:list"])
	require.NoError(t, err)
	var warned []string
	for _, w := range spec.Warnings {
		if strings.Contains(w, "is declared a file or directory by the program") {
			warned = append(warned, strings.Fields(w)[1])
		}
	}
	assert.Equal(t, []string{"config", "notebook"}, warned, "%q", spec.Warnings)
}

func TestSchemaFromPflagTypes(t *testing.T) {
	root, bridge := kit(&seen{})
	s, err := adapter.Schema(served(t, root, bridge)["notes:add"])
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
		"color": "boolean", "pin": "boolean", "title": "string", "body": "string",
	}, types)
	assert.ElementsMatch(t, []string{"priority", "title"}, sch.Required)
	assert.JSONEq(t, `"kit.yaml"`, string(sch.Properties["config"].Default))
	assert.JSONEq(t, `true`, string(sch.Properties["pin"].Default))
}

// TestArgvRunsTheProgram: the argv the host builds for an input is the call the
// program's own tree runs, flags at their level and positionals after "--".
func TestArgvRunsTheProgram(t *testing.T) {
	for _, tc := range []struct {
		tool, input string
		want        seen
	}{
		{"notes:add", `{"title":"--not-a-flag","body":"b","priority":2,"tag":["x","y"],"notebook":"work","config":"c.yaml","verbose":true,"remind":"5m","meta":["k=v","a=b"],"color":true,"pin":false}`,
			seen{Cmd: "kit notes add", Args: []string{"--not-a-flag", "b"}, Vals: map[string]string{
				"priority": "2", "tag": "[x,y]", "notebook": "work", "config": "c.yaml", "verbose": "1",
				"remind": "5m0s", "meta": "[a=b,k=v]", "color": "auto", "pin": "false"}}},
		{"notes:list", `{"limit":3}`, seen{Cmd: "kit notes list", Args: []string{}, Vals: map[string]string{"limit": "3"}}},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			var got seen
			root, bridge := kit(&got)
			argv, err := adapter.Argv(served(t, root, bridge)[tc.tool], json.RawMessage(tc.input))
			require.NoError(t, err)
			root, _ = kit(&got)
			root.SetArgs(argv)
			t.Logf("argv %q", argv)
			require.NoError(t, root.Execute(), "argv %q", argv)
			assert.Equal(t, tc.want, got, "argv %q", argv)
		})
	}
}

// TestManifestHoldsNoEnvironment: a default read from the environment never reaches
// the manifest; the declared default does.
func TestManifestHoldsNoEnvironment(t *testing.T) {
	t.Setenv("KIT_TOKEN", "s3cret")
	root := &cobra.Command{Use: "kit"}
	run := &cobra.Command{Use: "run", RunE: func(*cobra.Command, []string) error { return nil }}
	token := ""
	if v, ok := os.LookupEnv("KIT_TOKEN"); ok {
		token = v
	}
	run.Flags().String("token", "", "API token (default $KIT_TOKEN)")
	_ = run.Flags().Set("token", token) // a program that fills a flag from the environment
	bridge := cobrabridge.Command(nil)
	root.AddCommand(run, bridge)
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetArgs([]string{"bridge", adopted.ManifestWord})
	require.NoError(t, root.Execute())
	assert.NotContains(t, out.String(), "s3cret")
	assert.True(t, strings.Contains(out.String(), `"name":"token"`), out.String())
}

func ExampleCommand() {
	root := &cobra.Command{Use: "kit"}
	root.AddCommand(cobrabridge.Command(nil)) // the one added line
	fmt.Println(root.Commands()[0].Name())
	// Output: bridge
}

// TestDescribeSaysWhereTheRunCodeLives: a command's Package is the package its RunE is
// declared in (here, this test's), so that a tier table's package verdict can judge it.
func TestDescribeSaysWhereTheRunCodeLives(t *testing.T) {
	root, bridge := kit(&seen{})
	d := cobrabridge.Describe(root, bridge)
	require.NotEmpty(t, d.Commands)
	notes := d.Commands[0]
	require.Equal(t, "notes", notes.Name)
	assert.Empty(t, notes.Package, "a group runs nothing")
	require.NotEmpty(t, notes.Subcommands)
	assert.Equal(t, "github.com/cmdbridge/cmdbridge/cobrabridge_test", notes.Subcommands[0].Package)
}

// TestArityFromTheArgsValidator: a command whose Use names no positionals is read by its
// Args validator: none, an exact count (one of its ValidArgs: an enum), a range (the
// placeholders beyond its minimum optional), a minimum without a maximum (the last
// placeholder a list), or (no validator, more than three) the generic list.
func TestArityFromTheArgsValidator(t *testing.T) {
	root := &cobra.Command{Use: "kit"}
	run := func(*cobra.Command, []string) error { return nil }
	for _, c := range []*cobra.Command{
		{Use: "none", Args: cobra.NoArgs, RunE: run},
		{Use: "one", Args: cobra.ExactArgs(1), RunE: run},
		{Use: "two", Args: cobra.ExactArgs(2), RunE: run},
		{Use: "some", Args: cobra.RangeArgs(1, 2), RunE: run},
		{Use: "most", Args: cobra.MaximumNArgs(2), RunE: run},
		{Use: "least", Args: cobra.MinimumNArgs(2), RunE: run},
		{Use: "many", Args: cobra.ArbitraryArgs, RunE: run},
		{Use: "five", Args: cobra.ExactArgs(5), RunE: run},
		{Use: "any", RunE: run},
		{Use: "valid", Args: cobra.MatchAll(cobra.ExactArgs(1), cobra.OnlyValidArgs), ValidArgs: []string{"red\tthe colour", "blue"}, RunE: run},
		{Use: "named <thing>", Args: cobra.ExactArgs(1), RunE: run},
	} {
		root.AddCommand(c)
	}
	d := cobrabridge.Describe(root, nil)
	got := map[string]string{}
	for _, c := range d.Commands {
		got[c.Name] = c.ArgsUsage
	}
	assert.Equal(t, map[string]string{"none": " ", "one": "ARG", "two": "ARG1 ARG2", "some": "ARG1 [ARG2]",
		"most": "[ARG1] [ARG2]", "least": "ARG1 ARG2...", "many": "[ARG...]", "five": "", "any": "",
		"valid": "red|blue", "named": "<thing>"}, got)
}

// TestArityRunsThroughTheValidator: the positionals read from a range or a minimum are
// the schema's (required ones required, a list with the minimum's items), and their
// argv passes cobra's own validator.
func TestArityRunsThroughTheValidator(t *testing.T) {
	var got []string
	mk := func() (root, bridge *cobra.Command) {
		root = &cobra.Command{Use: "kit"}
		run := func(_ *cobra.Command, args []string) error { got = args; return nil }
		bridge = cobrabridge.Command(nil)
		root.AddCommand(&cobra.Command{Use: "some", Args: cobra.RangeArgs(1, 2), RunE: run},
			&cobra.Command{Use: "least", Args: cobra.MinimumNArgs(2), RunE: run}, bridge)
		return root, bridge
	}
	root, bridge := mk()
	cmds := served(t, root, bridge)
	for tool, tc := range map[string]struct {
		required []string
		input    string
		want     []string
	}{
		"some":  {[]string{"arg1"}, `{"arg1":"a","arg2":"b"}`, []string{"a", "b"}},
		"least": {[]string{"arg1", "arg2"}, `{"arg1":"a","arg2":["b","c"]}`, []string{"a", "b", "c"}},
	} {
		s, err := adapter.Schema(cmds[tool])
		require.NoError(t, err, tool)
		assert.ElementsMatch(t, tc.required, s.Required, tool)
		argv, err := adapter.Argv(cmds[tool], json.RawMessage(tc.input))
		require.NoError(t, err, tool)
		root, _ := mk()
		root.SetArgs(argv)
		require.NoError(t, root.Execute(), "argv %q", argv)
		assert.Equal(t, tc.want, got, tool)
	}
}

// TestValidArgsBecomeAnEnum: ExactArgs(1) with ValidArgs is one positional whose schema
// lists the words, and the argv of a word runs through cobra's OnlyValidArgs.
func TestValidArgsBecomeAnEnum(t *testing.T) {
	var got []string
	mk := func() (root, bridge *cobra.Command) {
		root = &cobra.Command{Use: "kit"}
		paint := &cobra.Command{Use: "paint", Args: cobra.MatchAll(cobra.ExactArgs(1), cobra.OnlyValidArgs), ValidArgs: []string{"red", "blue\tcalm"},
			RunE: func(_ *cobra.Command, args []string) error { got = args; return nil }}
		bridge = cobrabridge.Command(nil)
		root.AddCommand(paint, bridge)
		return root, bridge
	}
	root, bridge := mk()
	cmds := served(t, root, bridge)
	require.Len(t, cmds, 1)
	paint := cmds["paint"]
	s, err := adapter.Schema(paint)
	require.NoError(t, err)
	assert.Equal(t, []any{"red", "blue"}, s.Properties["arg"].Enum)
	argv, err := adapter.Argv(paint, json.RawMessage(`{"arg":"blue"}`))
	require.NoError(t, err)
	root, _ = mk()
	root.SetArgs(argv)
	require.NoError(t, root.Execute(), "argv %q", argv)
	assert.Equal(t, []string{"blue"}, got)
}
