package integration_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/parity"
)

// TestStaleCheckCorpusFromSource: run from source (`make parity` is `go run`), the
// corpus's registry holds every native tool its source has, so the check refuses none.
func TestStaleCheckCorpusFromSource(t *testing.T) {
	prog := parity.Program{FromSource: true, MainPath: "github.com/cmdbridge/cmdbridge/cmd/cmdbridge", Module: "github.com/cmdbridge/cmdbridge"}
	check, _ := parity.StaleCheck(prog, filepath.Join("..", "testdata", "script", "parity"), func(name string) bool {
		_, ok := nativetools.Default.Lookup(name)
		return ok
	})
	require.NotNil(t, check)
	names := parity.Suite{Commands: commands.Default, Native: nativetools.Default}.ToolNames()
	require.NotEmpty(t, names)
	for _, name := range names {
		assert.Empty(t, check(name), name)
	}
	lacking, _ := parity.StaleCheck(prog, filepath.Join("..", "testdata", "script", "parity"), func(string) bool { return false })
	assert.Contains(t, lacking("wu:status"), "nativetools/wu/wu_status.go", "the corpus's native files are found")
}
