package integration_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/all" // the corpus registers itself
)

// TestCorpusMapsWithoutWarnings: the corpus maps fully: none of its commands needs a
// fallback, so its schemas are the ones docs/tools.md pins, and no tool of it carries a
// warning.
func TestCorpusMapsWithoutWarnings(t *testing.T) {
	all := commands.All()
	require.Len(t, all, 82)
	for _, c := range all {
		assert.Empty(t, adapter.Warnings(c), c.Name)
		spec, err := adapter.Spec(c)
		require.NoError(t, err, c.Name)
		assert.Empty(t, spec.Warnings, c.Name)
	}
}
