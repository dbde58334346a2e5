package cobrabridge_test

import (
	"encoding/json"
	"io"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/cobrabridge"
)

// TestRedTeamCSVListElement: pflag reads each value of a string slice flag as a line of
// CSV, so an element the kernel checked as written ("\"/etc/passwd\"", a relative name
// to it, or "/etc\n/../in/scope", inside the workspace) reaches the program as another
// (/etc/passwd, /etc). Argv refuses an element that begins with a quote or holds a line
// break; any element it accepts, white space and all, reaches the program as given.
func TestRedTeamCSVListElement(t *testing.T) {
	var got []string
	mk := func() (root, bridge *cobra.Command) {
		root = &cobra.Command{Use: "kit", SilenceErrors: true, SilenceUsage: true}
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		put := &cobra.Command{Use: "put", Args: cobra.NoArgs, RunE: func(c *cobra.Command, _ []string) error {
			got, _ = c.Flags().GetStringSlice("file")
			return nil
		}}
		put.Flags().StringSlice("file", nil, "files to put")
		bridge = cobrabridge.Command(nil)
		root.AddCommand(put, bridge)
		return root, bridge
	}
	root, bridge := mk()
	put := served(t, root, bridge)["put"]
	for _, input := range []string{
		`{"file":["\"/etc/passwd\""]}`, `{"file":["in/scope","\"a\"\"b\""]}`,
		`{"file":["/etc\n/../in/scope"]}`, `{"file":["/etc\r/../in/scope"]}`,
	} {
		argv, err := adapter.Argv(put, json.RawMessage(input))
		assert.ErrorContains(t, err, "begins with a quote or holds a line break", "%s: argv %q", input, argv)
	}
	for _, input := range []string{`{"file":["in/scope"," padded ","x y","-"]}`, `{"file":["a\"b"]}`} {
		var in struct{ File []string }
		require.NoError(t, json.Unmarshal([]byte(input), &in))
		argv, err := adapter.Argv(put, json.RawMessage(input))
		require.NoError(t, err, input)
		root, _ := mk()
		root.SetArgs(argv)
		got = nil
		if err := root.Execute(); err != nil {
			continue // a bare quote inside a field: pflag refuses it, nothing runs
		}
		assert.Equal(t, in.File, got, "%s: argv %q", input, argv)
	}
}

// TestRedTeamHostileFlagValuesStayValues: a value that looks like an option, "--", a
// subcommand's name or nothing, given to the persistent flags of the root and of a
// group (written before the subcommand they belong to, where cobra's search for the
// command reads them), is that flag's value: cobra runs the same command, and the
// leaf gets no other flag and no other positional.
func TestRedTeamHostileFlagValuesStayValues(t *testing.T) {
	for _, v := range []string{"--", "-", "--help", "-v", "--version", "--config=x", "notes", "add", "a=b", ""} {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		input := `{"title":"t","priority":1,"config":` + string(b) + `,"notebook":` + string(b) + `}`
		var got seen
		root, bridge := kit(&got)
		argv, err := adapter.Argv(served(t, root, bridge)["notes:add"], json.RawMessage(input))
		require.NoError(t, err, input)
		root, _ = kit(&got)
		root.SetArgs(argv)
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		require.NoError(t, root.Execute(), "argv %q", argv)
		assert.Equal(t, seen{Cmd: "kit notes add", Args: []string{"t"}, Vals: map[string]string{"priority": "1", "config": v, "notebook": v}}, got, "argv %q", argv)
	}
}
