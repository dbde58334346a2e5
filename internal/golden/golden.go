// Package golden compares what a test produced with a file under its package's
// testdata/ directory, and rewrites the files when the tests run with -update: the one
// golden convention of this module's tests (the parity and command scripts' goldens,
// generated docs and code use the same flag through Update).
//
// Invariants:
//
//   - Without -update nothing is written: a missing or different file fails the test,
//     saying how to create it.
//   - Only test binaries import it (it registers the -update flag and uses testing).
package golden

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files (testdata/, the scripts' goldens, generated docs)")

// Update reports whether the tests run with -update: rewrite goldens instead of
// comparing with them.
func Update() bool { return *update }

// Check compares got with testdata/name, after writing it there under -update.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run the tests with -update to create %s", path)
	assert.Equal(t, string(want), string(got), "%s differs: run the tests with -update to rewrite it, and read the diff", path)
}

// JSON is Check of v as indented JSON with a final newline.
func JSON(t testing.TB, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	require.NoError(t, err)
	Check(t, name, append(got, '\n'))
}
