package legacy_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// A tree's command aliases become the leaf's Aliases, every combination of each level's
// name and aliases, the canonical spelling left out.
func TestTreeAliases(t *testing.T) {
	app := func() *cli.App {
		return &cli.App{Name: "gizmo", Commands: []*cli.Command{
			{Name: "notes", Aliases: []string{"n"}, Subcommands: []*cli.Command{
				{Name: "rm", Aliases: []string{"remove", "del"}, Action: func(*cli.Context) error { return nil }},
				{Name: "list", Action: func(*cli.Context) error { return nil }},
			}},
			{Name: "version", Action: func(*cli.Context) error { return nil }},
		}}
	}
	cs, err := legacy.FromApp(app, legacy.TreeOptions{})
	require.NoError(t, err)
	got := map[string][]string{}
	for _, c := range cs {
		got[c.Name] = c.Aliases
	}
	assert.ElementsMatch(t, []string{"notes:remove", "notes:del", "n:rm", "n:remove", "n:del"}, got["notes:rm"])
	assert.Equal(t, []string{"n:list"}, got["notes:list"])
	assert.Empty(t, got["version"])
}
