package all

import (
	"flag"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/bridgecheck"
	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

var updateTiers = flag.Bool("update-tiers", false, "rewrite tiers.json")

// TestTiersAreCurrent fails when tiers.json differs from what `go generate
// ./commands/all` would write (-update-tiers rewrites it).
func TestTiersAreCurrent(t *testing.T) {
	table, err := bridgecheck.Tiers("../..", "./commands/...")
	require.NoError(t, err)
	got, err := table.JSON()
	require.NoError(t, err)
	if *updateTiers {
		require.NoError(t, os.WriteFile("tiers.json", got, 0o644))
	}
	onDisk, err := os.ReadFile("tiers.json")
	require.NoError(t, err, "tiers.json is missing: run go generate ./commands/all")
	assert.Equal(t, string(onDisk), string(got), "tiers.json is stale: run go generate ./commands/all")
	assert.Equal(t, string(onDisk), string(tiersJSON), "the embedded tiers.json is not the file on disk")
	assert.NotEmpty(t, table.Commands, "the corpus has commands")
}

// Every corpus command carries its verdict after init, and a subprocess one says why.
func TestEveryCorpusCommandHasItsTier(t *testing.T) {
	table, err := legacy.ParseTiers(tiersJSON)
	require.NoError(t, err)
	require.Len(t, table.Commands, len(commands.All()), "one verdict per registered command")
	for _, c := range commands.All() {
		v, ok := table.Commands[c.Name]
		require.True(t, ok, c.Name)
		assert.Equal(t, v.Tier, c.Tier, c.Name)
		assert.Equal(t, len(v.Findings), len(c.Findings), c.Name)
		for i := range min(len(v.Findings), len(c.Findings)) {
			assert.Equal(t, v.Findings[i], c.Findings[i], c.Name)
		}
		if c.Tier == legacy.TierSubprocess {
			assert.NotEmpty(t, c.Findings, "a subprocess command says why: %s", c.Name)
		}
	}
}
