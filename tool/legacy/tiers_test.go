package legacy_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// thisPackage is the import path the runtime gives this test package's functions.
const thisPackage = "github.com/cmdbridge/cmdbridge/tool/legacy_test"

func treeApp() *cli.App {
	return &cli.App{Name: "prog", Commands: []*cli.Command{
		{Name: "a", Action: func(*cli.Context) error { return nil }},
		{Name: "b", Action: actionB},
		{Name: "c", Subcommands: []*cli.Command{{Name: "d", Action: actionB}}},
	}}
}

func actionB(*cli.Context) error { return nil }

// A tree leaf records the package its action lives in, and a tier table's package
// verdict judges it unless a command verdict names it.
func TestPackageVerdictsJudgeTreeLeaves(t *testing.T) {
	r := legacy.NewRegistry()
	require.NoError(t, r.AddApp(treeApp, legacy.TreeOptions{}))
	for _, c := range r.All() {
		assert.Equal(t, thisPackage, c.Package, c.Name)
		assert.Empty(t, c.Tier, "nobody analysed %s yet", c.Name)
	}
	table, err := legacy.ParseTiers([]byte(`{
		"commands": {"b": {"tier": "subprocess", "findings": ["exit x.go: os.Exit"]}},
		"packages": {"` + thisPackage + `": {"tier": "in-process", "findings": []}}}`))
	require.NoError(t, err)
	require.NoError(t, r.SetTiers(table))
	tier := func(name string) string {
		c, ok := r.Lookup(name)
		require.True(t, ok, name)
		return c.Tier
	}
	assert.Equal(t, legacy.TierInProcess, tier("a"), "judged by its package")
	assert.Equal(t, legacy.TierSubprocess, tier("b"), "a command verdict wins over its package's")
	assert.Equal(t, legacy.TierInProcess, tier("c:d"))

	// A running app (Live) is never judged in-process, whatever its package.
	live := legacy.NewRegistry()
	require.NoError(t, live.AddApp(treeApp, legacy.TreeOptions{Live: true}))
	require.NoError(t, live.SetTiers(legacy.Table{Packages: table.Packages}))
	c, _ := live.Lookup("a")
	assert.Equal(t, legacy.TierSubprocess, c.Tier)
}

func TestParseTiersRefusesUnknownTiers(t *testing.T) {
	_, err := legacy.ParseTiers([]byte(`{"packages": {"p": {"tier": "maybe"}}}`))
	assert.ErrorContains(t, err, `"p"`)
	_, err = legacy.ParseTiers([]byte(`{"commands": {"x": {"tier": "sometimes"}}}`))
	assert.ErrorContains(t, err, `"x"`)
}
