package legacy_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// TreeOptions.NoArgs (globs) marks the leaves that take no positionals
// (MetaNoArgs), and a leaf with subcommands of its own names them (MetaSubcommands);
// other leaves carry neither.
func TestTreeNoArgsAndSubcommands(t *testing.T) {
	act := func(*cli.Context) error { return nil }
	app := func() *cli.App {
		return &cli.App{Name: "dbkit", Commands: []*cli.Command{
			{Name: "new", Action: act},
			{Name: "status", Action: act},
			{Name: "schema", Action: act, Subcommands: []*cli.Command{
				{Name: "dump", Aliases: []string{"d"}, Action: act},
			}},
		}}
	}
	cs, err := legacy.FromApp(app, legacy.TreeOptions{NoArgs: []string{"stat*"}})
	require.NoError(t, err)
	meta := map[string]map[string]any{} // the positional keys (effects have their own test)
	for _, c := range cs {
		for k, v := range c.New().Metadata {
			if k == legacy.MetaNoArgs || k == legacy.MetaSubcommands {
				if meta[c.Name] == nil {
					meta[c.Name] = map[string]any{}
				}
				meta[c.Name][k] = v
			}
		}
	}
	assert.Nil(t, meta["new"])
	assert.Equal(t, map[string]any{legacy.MetaNoArgs: true}, meta["status"])
	assert.Equal(t, map[string]any{legacy.MetaSubcommands: []string{"dump", "d"}}, meta["schema"])
	assert.Nil(t, meta["schema:dump"])

	_, err = legacy.FromApp(app, legacy.TreeOptions{NoArgs: []string{"["}})
	assert.ErrorContains(t, err, `no-args pattern "["`)
}
