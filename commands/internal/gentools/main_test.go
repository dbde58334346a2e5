package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/golden"
)

// TestToolsReferenceIsCurrent fails when docs/tools.md differs from what `go generate
// ./kernel` would write.
func TestToolsReferenceIsCurrent(t *testing.T) {
	got, err := Render()
	require.NoError(t, err)
	path := filepath.Join("..", "..", "..", "docs", "tools.md")
	if golden.Update() {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "docs/tools.md is missing: run go generate ./kernel")
	assert.Equal(t, string(want), string(got), "docs/tools.md is stale: run go generate ./kernel")
}

func TestRenderIsDeterministic(t *testing.T) {
	a, err := Render()
	require.NoError(t, err)
	b, err := Render()
	require.NoError(t, err)
	assert.Equal(t, string(a), string(b))
	assert.Contains(t, string(a), "### `git:status`")
	assert.Contains(t, string(a), "### `delegation:record`")
}
