package bridgecheck_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/bridgecheck"
)

// withLegacy sets the -legacy patterns for one test.
func withLegacy(t *testing.T, patterns string) {
	t.Helper()
	require.NoError(t, bridgecheck.Scope.Flags.Set("legacy", patterns))
	t.Cleanup(func() { _ = bridgecheck.Scope.Flags.Set("legacy", "") })
}

// The adapter's hazard fixtures are deliberately unsafe: the ones whose hazard is in
// their code are tiered subprocess, the ones the costume contains (panics, flag and
// log globals, stdin, env reads, meddling with urfave/cli globals) stay in-process.
// hazard is found by what it registers: no -legacy is needed.
func TestTiersOfTheHazardFixtures(t *testing.T) {
	table, err := bridgecheck.Tiers("..", "./adapter/internal/hazard")
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

// -legacy replaces the detection: outside its patterns nothing is tiered; a package
// that registers nothing is not tiered either; a package that does not type-check has
// no tiers.
func TestTiersScopeAndErrors(t *testing.T) {
	withLegacy(t, "**/no/such/pattern")
	table, err := bridgecheck.Tiers("..", "./adapter/internal/hazard")
	require.NoError(t, err)
	assert.Empty(t, table.Commands, "-legacy names other packages")
	withLegacy(t, "")

	table, err = bridgecheck.Tiers("..", "./tool/...")
	require.NoError(t, err)
	assert.Empty(t, table.Commands, "tool registers no command")
	assert.Empty(t, table.Shared)

	_, err = bridgecheck.Tiers("..", "./no/such/package")
	assert.Error(t, err)
}
