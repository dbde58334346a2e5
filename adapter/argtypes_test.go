package adapter

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// typedCommand is a program with a count and a list of ratios as positionals, typed by
// legacy.MetaArgTypes as types declares them.
func typedCommand(types map[string]any) legacy.Command {
	return legacy.Command{Name: "adopter:typed", New: func() *cli.App {
		return &cli.App{
			Name: "typed", ArgsUsage: "<COUNT> [<RATIO>...]",
			Metadata: map[string]any{legacy.MetaArgTypes: types},
		}
	}}
}

// TestTypedPositionals: a positional MetaArgTypes types is a number in the schema and
// in argv (written as the JSON number it was given), refuses text, and keeps no operand
// pattern (a number is never an option); a table naming no positional, or a type that
// is not a number's, is the command's error.
func TestTypedPositionals(t *testing.T) {
	c := typedCommand(map[string]any{"COUNT": "integer", "ratio": "number"})
	spec, err := Spec(c)
	require.NoError(t, err)
	count, ratio := spec.InputSchema.Properties["count"], spec.InputSchema.Properties["ratio"]
	require.NotNil(t, count)
	require.NotNil(t, ratio)
	assert.Equal(t, "integer", count.Type)
	assert.Empty(t, count.Pattern)
	assert.Equal(t, "array", ratio.Type)
	assert.Equal(t, "number", ratio.Items.Type)
	assert.Empty(t, ratio.Items.Pattern)
	for _, bad := range []string{`{"count":"3"}`, `{"count":"--output=x"}`, `{"count":1.5}`, `{"count":3,"ratio":["-x"]}`} {
		assert.NotNil(t, checkInput(t, spec, bad), "%s: not the number the positional takes", bad)
	}
	assert.Nil(t, checkInput(t, spec, `{"count":-3,"ratio":[0.5,2]}`))

	argv, err := Argv(c, json.RawMessage(`{"count":-3,"ratio":[0.5,2]}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"--", "-3", "0.5", "2"}, argv)

	for _, bad := range []map[string]any{{"WEIGHT": "integer"}, {"COUNT": "date"}} {
		_, err := Spec(typedCommand(bad))
		assert.ErrorContains(t, err, legacy.MetaArgTypes, bad)
	}
}
