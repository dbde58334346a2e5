package adapter

import (
	"encoding/json"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// operandCommand is an adopter's program with a positional, a mode whose words the
// metadata may fix, a list and a flag; *got is what its action saw.
func operandCommand(meta map[string]any, got *[]string) legacy.Command {
	return legacy.Command{Name: "adopter:operands", New: func() *cli.App {
		return &cli.App{
			Name: "operands", ArgsUsage: "<REF> [<MODE>] [<FILE>...]", Metadata: meta,
			EnableBashCompletion: true,
			Flags:                []cli.Flag{&cli.StringFlag{Name: "note"}},
			Action: func(c *cli.Context) error {
				*got = append([]string{"ran"}, c.Args().Slice()...)
				return nil
			},
		}
	}}
}

// checkInput is the kernel's step 4 for spec: nil when valid, else the INVALID_INPUT
// refusal.
func checkInput(t *testing.T, spec tool.Spec, input string) *tool.Error {
	t.Helper()
	v, _, bad := tool.DecodeInput(json.RawMessage(input))
	require.Nil(t, bad, input)
	return spec.CheckInput(v)
}

// TestRedTeamPositionalNeverCarriesAnOption: a positional's value beginning with "-"
// is refused by the input schema (INVALID_INPUT, naming the property), so no caller
// can hand the program, or what it runs, an option; flag values, a lone "-", an empty
// value and a positional whose words are fixed stay as they were.
func TestRedTeamPositionalNeverCarriesAnOption(t *testing.T) {
	var got []string
	spec, err := Spec(operandCommand(map[string]any{legacy.MetaArgChoices: map[string][]string{"MODE": {"fast", "-slow"}}}, &got))
	require.NoError(t, err)
	for input, path := range map[string]string{
		`{"ref":"--output=out.txt"}`:             "/ref",
		`{"ref":"-O/etc/passwd"}`:                "/ref",
		`{"ref":"--ext-diff"}`:                   "/ref",
		`{"ref":"HEAD","file":["a","--exec=x"]}`: "/file/1",
	} {
		out := checkInput(t, spec, input)
		require.NotNil(t, out, input)
		assert.Equal(t, tool.CodeInvalidInput, out.Code, input)
		assert.Equal(t, path, out.Details.(map[string]any)["path"], input)
	}
	for _, input := range []string{
		`{"ref":"HEAD~1"}`, `{"ref":"main..HEAD","file":["-"]}`, `{"ref":""}`,
		`{"ref":"a-b","mode":"-slow"}`, `{"ref":"x","note":"--output=out.txt"}`,
	} {
		assert.Nil(t, checkInput(t, spec, input), input)
	}
	assert.Equal(t, tool.OperandPattern, spec.InputSchema.Properties["ref"].Pattern)
	assert.Equal(t, tool.OperandPattern, spec.InputSchema.Properties["file"].Items.Pattern)
	assert.Empty(t, spec.InputSchema.Properties["mode"].Pattern, "an enum says every word it takes")
	assert.Empty(t, spec.InputSchema.Properties["note"].Pattern, "a flag's value is bound as a value")
}

// The author opts a positional out with legacy.MetaArgLeadingDash (by its usage name or
// its property); a name that is no positional is malformed metadata.
func TestLeadingDashOptOut(t *testing.T) {
	var got []string
	for _, names := range [][]string{{"REF"}, {"ref"}} {
		spec, err := Spec(operandCommand(map[string]any{legacy.MetaArgLeadingDash: names}, &got))
		require.NoError(t, err)
		assert.Nil(t, checkInput(t, spec, `{"ref":"-1"}`), names)
		assert.NotNil(t, checkInput(t, spec, `{"ref":"x","file":["-1"]}`), "only the named positional")
	}
	spec, err := Spec(operandCommand(map[string]any{legacy.MetaArgLeadingDash: []any{"FILE"}}, &got))
	require.NoError(t, err, "the JSON shape of the list")
	assert.Nil(t, checkInput(t, spec, `{"ref":"x","file":["-1"]}`))
	_, err = Spec(operandCommand(map[string]any{legacy.MetaArgLeadingDash: []string{"note"}}, &got))
	assert.ErrorContains(t, err, `"note" is no positional`)
	_, err = Spec(operandCommand(map[string]any{legacy.MetaArgLeadingDash: "REF"}, &got))
	assert.ErrorContains(t, err, "must be a list")
}

// TestRedTeamArgvEndsOptionsBeforePositionals: even a positional the author lets begin
// with "-" reaches the program as a positional, wherever it stands. urfave/cli reads a
// last "--generate-bash-completion" as its completion flag (the action never runs)
// unless "--" comes before it.
func TestRedTeamArgvEndsOptionsBeforePositionals(t *testing.T) {
	var got []string
	c := operandCommand(map[string]any{legacy.MetaArgLeadingDash: []string{"FILE"}}, &got)
	spec, err := Spec(c)
	require.NoError(t, err)
	input := `{"ref":"HEAD","mode":"m","file":["a","--generate-bash-completion"]}`
	require.Nil(t, checkInput(t, spec, input))
	argv, err := Argv(c, json.RawMessage(input))
	require.NoError(t, err)
	got = nil
	app := c.New()
	app.Writer = io.Discard
	require.NoError(t, app.Run(append([]string{c.Name}, argv...)), "argv %q", argv)
	assert.Equal(t, []string{"ran", "HEAD", "m", "a", "--generate-bash-completion"}, got, "argv %q", argv)
}

// A leaf of a command tree has no Metadata: its positionals are opted out through
// legacy.TreeOptions.LeadingDash (cmdbridge.Config.LeadingDash), per tool.
func TestLeadingDashOptOutOfATreeLeaf(t *testing.T) {
	newApp := func() *cli.App {
		words := func(name string) *cli.Command {
			return &cli.Command{Name: name, ArgsUsage: "WORD [WORD...]", Action: func(*cli.Context) error { return nil }}
		}
		return &cli.App{Name: "gizmo", Commands: []*cli.Command{{Name: "text", Subcommands: []*cli.Command{words("upper"), words("lower")}}}}
	}
	cs, err := legacy.FromApp(newApp, legacy.TreeOptions{LeadingDash: map[string][]string{"text:upper": {"WORD"}}})
	require.NoError(t, err)
	require.Len(t, cs, 2)
	for _, c := range cs {
		spec, err := Spec(c)
		require.NoError(t, err, c.Name)
		out := checkInput(t, spec, `{"word":["a","-b"]}`)
		if c.Name == "text:upper" {
			assert.Nil(t, out, c.Name)
			continue
		}
		require.NotNil(t, out, c.Name)
		assert.Equal(t, "/word/1", out.Details.(map[string]any)["path"])
	}
}
