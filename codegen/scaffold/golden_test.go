package scaffold_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/codegen/scaffold"
	"github.com/cmdbridge/cmdbridge/codegen/scaffold/testdata/greet"
	"github.com/cmdbridge/cmdbridge/internal/golden"
	"github.com/cmdbridge/cmdbridge/internal/outsidetest"
)

// moduleRoot is the repository root.
func moduleRoot(t *testing.T) string { return outsidetest.RepoRoot(t) }

// greetDir is the greet program's folder, under this package's testdata.
func greetDir(t *testing.T) string {
	return filepath.Join(moduleRoot(t), "codegen", "scaffold", "testdata")
}

// greetImport is the import path of the greet program's packages.
const greetImport = "github.com/cmdbridge/cmdbridge/codegen/scaffold/testdata/greet"

// greetConfig scaffolds the testdata command demo:greet into root with everything named:
// the package patterns, the native registry (a function), the legacy registry, the
// program's initialisms, and the parity script seeded from testdata/script.
func greetConfig(t *testing.T, root string) scaffold.Config {
	return scaffold.Config{
		Root:        root,
		Commands:    greet.Commands,
		Initialisms: []string{"cc"},
		Registry:    greetImport + "/tools.Register",
		Legacy:      greetImport + ".Commands",
		Dir:         moduleRoot(t),
		Patterns:    []string{"./codegen/scaffold/testdata/greet"},
		Scripts:     filepath.Join(greetDir(t), "script"),
	}
}

func TestGoldenGreet(t *testing.T) {
	dir := filepath.Join(greetDir(t), "golden")
	files, err := scaffold.Plan(context.Background(), greetConfig(t, dir), "demo:greet")
	require.NoError(t, err)
	var paths []string
	for _, f := range files {
		paths = append(paths, filepath.ToSlash(f.Path))
		for _, mark := range corpusMarks {
			assert.NotContains(t, string(f.Content), mark, "%s holds corpus data", f.Path)
		}
	}
	assert.ElementsMatch(t, []string{
		"nativetools/demo/demo_greet.go", "nativetools/demo/demo_greet_test.go", "nativetools/demo/doc.go",
		"testdata/script/parity/demo_greet.txtar", "nativetools/all/all.go",
	}, pathsWithoutDoc(paths, dir))
	if golden.Update() {
		_, err := scaffold.Write(dir, files, true)
		require.NoError(t, err)
	}
	for _, f := range files {
		want, err := os.ReadFile(filepath.Join(dir, f.Path))
		require.NoError(t, err, "golden %s missing: run go test -run TestGoldenGreet -update", f.Path)
		assert.Equal(t, string(want), string(f.Content), "golden %s differs: run go test -run TestGoldenGreet -update", f.Path)
	}
}

// pathsWithoutDoc adds doc.go to the expected set when the golden package already has
// one (the scaffold writes doc.go only for a new package).
func pathsWithoutDoc(paths []string, golden string) []string {
	for _, p := range paths {
		if p == "nativetools/demo/doc.go" {
			return paths
		}
	}
	if _, err := os.Stat(filepath.Join(golden, "nativetools", "demo", "doc.go")); err == nil {
		return append(paths, "nativetools/demo/doc.go")
	}
	return paths
}

// TestGeneratedGreetBuildsVetsAndPasses builds and vets the golden packages (demo:greet's
// and gizmo's notes:add) and runs the unit tests the scaffold generated for them (schema
// equality, full decode, and the NOT_IMPLEMENTED skeleton).
func TestGeneratedGreetBuildsVetsAndPasses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with the go command")
	}
	pkgs := []string{"./codegen/scaffold/testdata/golden/nativetools/...", "./testdata/codegen/golden-gizmo/nativetools/..."}
	for _, args := range [][]string{{"build"}, {"vet"}, {"test", "-count=1"}} {
		args = append(args, pkgs...)
		out, err := goCmd(t, moduleRoot(t), args...)
		require.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
	}
}

func goCmd(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}
