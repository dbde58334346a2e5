package adapter

import (
	"encoding/json"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// TestRedTeamPositionalCannotRunASubcommand: a leaf with an action of its own and
// subcommands (gizmo notes, with notes purge under it) is a tool whose positionals
// urfave/cli reads after "--" all the same; but the first word after "--" naming a
// subcommand (or an alias) runs that subcommand instead, a command the caller was not
// given. Argv refuses such a first positional (or first passthrough word); any other
// runs the leaf with the words as given.
func TestRedTeamPositionalCannotRunASubcommand(t *testing.T) {
	var ran string
	var got []string
	newApp := func() *cli.App {
		return &cli.App{Name: "gizmo", Writer: io.Discard, ErrWriter: io.Discard, Commands: []*cli.Command{{
			Name: "notes", ArgsUsage: "[<NAME>] [-- ARG...]",
			Action: func(c *cli.Context) error { ran, got = "notes", c.Args().Slice(); return nil },
			Subcommands: []*cli.Command{{Name: "purge", Aliases: []string{"rm"},
				Action: func(c *cli.Context) error { ran, got = "purge", c.Args().Slice(); return nil }}},
		}}}
	}
	cs, err := legacy.FromApp(newApp, legacy.TreeOptions{})
	require.NoError(t, err)
	var notes legacy.Command
	for _, c := range cs {
		if c.Name == "notes" {
			notes = c
		}
	}
	require.Equal(t, "notes", notes.Name)
	for _, input := range []string{`{"name":"purge"}`, `{"name":"rm","arg":["x"]}`, `{"arg":["purge"]}`} {
		argv, err := Argv(notes, json.RawMessage(input))
		assert.ErrorContains(t, err, "names a subcommand", "%s: argv %q", input, argv)
		if err == nil {
			ran = ""
			require.NoError(t, newApp().Run(append([]string{"gizmo"}, argv...)))
			assert.Equal(t, "notes", ran, "%s: argv %q ran another command", input, argv)
		}
	}
	for input, want := range map[string][]string{
		`{"name":"x","arg":["purge"]}`: {"x", "--", "purge"},
		`{"name":"purged"}`:            {"purged"},
	} {
		argv, err := Argv(notes, json.RawMessage(input))
		require.NoError(t, err, input)
		ran, got = "", nil
		require.NoError(t, newApp().Run(append([]string{"gizmo"}, argv...)))
		assert.Equal(t, "notes", ran, input)
		assert.Equal(t, want, got, input)
	}
}

// TestRedTeamListElementReachesTheProgramAsGiven: the kernel checks an input's values
// as the caller wrote them (a path held to the scopes, a pattern), so the program must
// get each list element as written. urfave/cli v2 trims a StringSliceFlag's elements of
// white space (" /etc/passwd" is a relative name to the kernel, /etc/passwd to the
// program) and splits them at App.SliceFlagSeparator as at ","; Argv refuses such an
// element. A KeepSpace flag and an app that disables the separator take it as given.
func TestRedTeamListElementReachesTheProgramAsGiven(t *testing.T) {
	var got map[string][]string
	command := func(app func() *cli.App) legacy.Command {
		return legacy.Command{Name: "adopter:lists", New: func() *cli.App {
			a := app()
			a.Name, a.Writer, a.ErrWriter, a.ArgsUsage = "lists", io.Discard, io.Discard, " "
			a.Flags = []cli.Flag{&cli.StringSliceFlag{Name: "file"}, &cli.StringSliceFlag{Name: "kept", KeepSpace: true}}
			a.Action = func(c *cli.Context) error {
				got = map[string][]string{"file": c.StringSlice("file"), "kept": c.StringSlice("kept")}
				return nil
			}
			return a
		}}
	}
	plain := command(func() *cli.App { return &cli.App{} })
	semi := command(func() *cli.App { return &cli.App{SliceFlagSeparator: ";"} })
	whole := command(func() *cli.App { return &cli.App{DisableSliceFlagSeparator: true} })
	for _, tc := range []struct {
		c       legacy.Command
		input   string
		refused string
	}{
		{plain, `{"file":["in/scope"," /etc/passwd"]}`, "element 1 begins or ends with white space"},
		{plain, `{"file":["/etc/shadow\n"]}`, "element 0 begins or ends with white space"},
		{whole, `{"file":["\t/etc/passwd"]}`, "element 0 begins or ends with white space"},
		{semi, `{"file":["in/scope;/etc/passwd"]}`, `element 0 holds the app's SliceFlagSeparator ";"`},
		{plain, `{"file":["a b"],"kept":[" x ","y\t"]}`, ""},
		{semi, `{"file":["a,b"]}`, ""},
		{whole, `{"file":["a,b;c"]}`, ""},
	} {
		argv, err := Argv(tc.c, json.RawMessage(tc.input))
		if tc.refused != "" {
			assert.ErrorContains(t, err, tc.refused, "%s: argv %q", tc.input, argv)
			continue
		}
		require.NoError(t, err, tc.input)
		var in map[string][]string
		require.NoError(t, json.Unmarshal([]byte(tc.input), &in))
		got = nil
		require.NoError(t, tc.c.New().Run(append([]string{"lists"}, argv...)), tc.input)
		for prop, want := range in {
			assert.Equal(t, want, got[prop], "%s: argv %q", tc.input, argv)
		}
	}
}
