package parity_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/parity"
)

// staleModule is a module example.com/m with a parity script directory and the native
// source of notes:list, written at mod.
func staleModule(t *testing.T, mod time.Time) (root, scripts string) {
	t.Helper()
	root = t.TempDir()
	scripts = filepath.Join(root, "testdata", "script", "parity")
	require.NoError(t, os.MkdirAll(scripts, 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "nativetools", "notes"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/m\n\ngo 1.26.0\n"), 0o644))
	src := filepath.Join(root, "nativetools", "notes", "notes_list.go")
	require.NoError(t, os.WriteFile(src, []byte("package notes\n\nvar spec = \"notes:list\"\n"), 0o644))
	require.NoError(t, os.Chtimes(src, mod, mod))
	return root, scripts
}

// TestStaleCheck: a built binary that lacks a native tool the source has, or is older
// than its source file, is refused with the command that rebuilds it; from source only a
// tool that is not linked is refused; a test binary or another module is not checked,
// and the note says so.
func TestStaleCheck(t *testing.T) {
	edited := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	_, scripts := staleModule(t, edited)
	built := func(at time.Time) parity.Program {
		return parity.Program{Exe: "/bin/m", Built: at, MainPath: "example.com/m/cmd/m", Module: "example.com/m"}
	}
	lacks := func(string) bool { return false }
	has := func(string) bool { return true }

	check, note := parity.StaleCheck(built(edited.Add(-time.Hour)), scripts, lacks)
	require.NotNil(t, check)
	assert.Empty(t, note)
	msg := check("notes:list")
	assert.Contains(t, msg, "stale binary: the source has a native notes:list (nativetools/notes/notes_list.go)")
	assert.Contains(t, msg, "`go build -o /bin/m ./cmd/m`")
	assert.Contains(t, msg, "`go run ./cmd/m parity notes:list`")
	assert.Empty(t, check("notes:show"), "no native source, nothing to compare")

	check, _ = parity.StaleCheck(built(edited.Add(-time.Hour)), scripts, has)
	assert.Contains(t, check("notes:list"), "stale binary: nativetools/notes/notes_list.go (native notes:list) changed at 2026-03-01T10:00:00Z")
	check, _ = parity.StaleCheck(built(edited.Add(time.Hour)), scripts, has)
	assert.Empty(t, check("notes:list"), "a binary built after the edit is current")

	fromSource := built(time.Time{})
	fromSource.FromSource = true
	check, note = parity.StaleCheck(fromSource, scripts, has)
	assert.Contains(t, note, "running from source (go run ./cmd/m)")
	assert.Empty(t, check("notes:list"))
	check, _ = parity.StaleCheck(fromSource, scripts, lacks)
	assert.Contains(t, check("notes:list"), "not linked: the source has a native notes:list")

	test := built(edited)
	test.Test = true
	check, note = parity.StaleCheck(test, scripts, lacks)
	assert.Nil(t, check)
	assert.Contains(t, note, "stale-binary check off: this is a go test binary")

	other := built(edited)
	other.Module = "example.com/other"
	check, note = parity.StaleCheck(other, scripts, lacks)
	assert.Nil(t, check)
	assert.Contains(t, note, "the scripts are in module example.com/m, this program was built from example.com/other")
}
