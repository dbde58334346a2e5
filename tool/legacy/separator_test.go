package legacy_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// TestRedTeamTreeLeafKeepsTheSliceSeparator: a leaf of a tree whose app splits list
// values at its own SliceFlagSeparator is served with that separator, so an element
// holding it (in/scope;/etc/passwd: one path to the kernel, two to the program) is
// refused; the leaf used to be described with "," only.
func TestRedTeamTreeLeafKeepsTheSliceSeparator(t *testing.T) {
	var got []string
	tree := func() *cli.App {
		return &cli.App{Name: "kit", SliceFlagSeparator: ";", Commands: []*cli.Command{{
			Name: "pack", Flags: []cli.Flag{&cli.StringSliceFlag{Name: "file"}},
			Action: func(c *cli.Context) error { got = c.StringSlice("file"); return nil },
		}}}
	}
	cs, err := legacy.FromApp(tree, legacy.TreeOptions{})
	require.NoError(t, err)
	require.Len(t, cs, 1)
	_, err = adapter.Argv(cs[0], json.RawMessage(`{"file":["in/scope;/etc/passwd"]}`))
	assert.ErrorContains(t, err, `holds the app's SliceFlagSeparator ";"`)

	argv, err := adapter.Argv(cs[0], json.RawMessage(`{"file":["a,b"]}`))
	require.NoError(t, err, "a comma is no separator of this app")
	require.NoError(t, tree().Run(append([]string{"kit"}, argv...)))
	assert.Equal(t, []string{"a,b"}, got)
}
