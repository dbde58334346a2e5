package bridgecheck_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/codegen/bridgecheck"
)

// withLegacy sets the -legacy patterns for one test.
func withLegacy(t *testing.T, patterns string) {
	t.Helper()
	require.NoError(t, bridgecheck.Analyzer.Flags.Set("legacy", patterns))
	t.Cleanup(func() { _ = bridgecheck.Analyzer.Flags.Set("legacy", bridgecheck.DefaultLegacy) })
}

// The adapter's hazard fixtures are deliberately unsafe: the ones whose hazard is in
// their code are tiered subprocess, the ones the costume contains (panics, flag and
// log globals, stdin, env reads, meddling with urfave/cli globals) stay in-process.
func TestTiersOfTheHazardFixtures(t *testing.T) {
	withLegacy(t, "**/adapter/internal/hazard")
	table, err := bridgecheck.Tiers("../..", "./adapter/internal/hazard")
	require.NoError(t, err)
	assert.Equal(t, []string{"chdir", "exit-goroutine", "init-logger", "leak", "swallow"}, table.Subprocess())
	assert.Equal(t, bridgecheck.Entry{Tier: bridgecheck.TierSubprocess, Findings: []string{
		"global-stream adapter/internal/hazard/hazard.go: var initLogger (bound to os.Stderr)",
	}}, table.Commands["init-logger"])
	assert.Equal(t, bridgecheck.Entry{Tier: bridgecheck.TierInProcess, Findings: []string{}}, table.Commands["hello"])
	assert.Len(t, table.Commands, 17)
	assert.Empty(t, table.Shared)

	b, err := table.JSON()
	require.NoError(t, err)
	var back bridgecheck.Table
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, *table, back)
	assert.Equal(t, bridgecheck.GeneratedNote, back.Generated)
}

// Outside the legacy patterns nothing is tiered; a package that does not type-check
// has no tiers.
func TestTiersScopeAndErrors(t *testing.T) {
	table, err := bridgecheck.Tiers("../..", "./adapter/internal/hazard")
	require.NoError(t, err)
	assert.Empty(t, table.Commands, "hazard is not under commands/")

	_, err = bridgecheck.Tiers("../..", "./no/such/package")
	assert.Error(t, err)
}
