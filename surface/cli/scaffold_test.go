package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/codegen/scaffold/testdata/greet"
	"github.com/cmdbridge/cmdbridge/internal/hostconfig"
	"github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/surface/cli/devcli"
)

// scaffoldHost serves the scaffold's own test program, greet (one command, demo:greet,
// in a registry of its own, and its native registry's Register).
func scaffoldHost() cli.Host {
	return cli.Host{Config: hostconfig.Config{
		Commands: greet.Commands, Initialisms: []string{"cc"}, Subcommands: devcli.Commands(),
		ScaffoldRegistry: "github.com/cmdbridge/cmdbridge/codegen/scaffold/testdata/greet/tools.Register",
	}}
}

// scaffoldRun runs `cmdbridge scaffold args…` and returns stdout, stderr and the status.
func scaffoldRun(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Main(append([]string{"cmdbridge", "scaffold"}, args...), &out, &errb, scaffoldHost())
	return out.String(), errb.String(), code
}

// TestScaffoldWritesRefusesAndForces scaffolds demo:greet into a folder inside the
// module (generated import paths need one), then checks that a second run refuses to
// overwrite and names the files, and that --force overwrites.
func TestScaffoldWritesRefusesAndForces(t *testing.T) {
	require.NoError(t, os.MkdirAll("testdata", 0o755))
	root, err := os.MkdirTemp("testdata", "scaffold-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(root) })

	stdout, stderr, code := scaffoldRun(t, "--root", root, "demo:greet")
	require.Equal(t, cli.ExitOK, code, stderr)
	for _, p := range []string{"nativetools/demo/demo_greet.go", "nativetools/demo/demo_greet_test.go",
		"nativetools/demo/doc.go", "testdata/script/parity/demo_greet.txtar", "nativetools/all/all.go"} {
		assert.Contains(t, stdout, "wrote "+p)
		assert.FileExists(t, filepath.Join(root, p))
	}
	toolFile := filepath.Join(root, "nativetools", "demo", "demo_greet.go")
	generated, err := os.ReadFile(toolFile)
	require.NoError(t, err)
	assert.Contains(t, string(generated), "type GreetInput struct")
	assert.Contains(t, string(generated), "tools.Register(native.New(", "the host's registry")
	assert.Contains(t, string(generated), "tool.CodeNotImplemented")

	// A maintainer has started the handler: a plain rerun must not touch it.
	require.NoError(t, os.WriteFile(toolFile, []byte("package demo // edited\n"), 0o644))
	_, stderr, code = scaffoldRun(t, "--root", root, "demo:greet")
	assert.Equal(t, cli.ExitFailed, code)
	assert.Contains(t, stderr, "refusing to overwrite existing files (use --force)")
	assert.Contains(t, stderr, "nativetools/demo/demo_greet.go")
	assert.Contains(t, stderr, "testdata/script/parity/demo_greet.txtar")
	edited, err := os.ReadFile(toolFile)
	require.NoError(t, err)
	assert.Equal(t, "package demo // edited\n", string(edited))

	stdout, stderr, code = scaffoldRun(t, "--keep-existing", "--root", root, "demo:greet")
	require.Equal(t, cli.ExitOK, code, stderr)
	assert.Contains(t, stdout, "kept nativetools/demo/demo_greet.go")
	edited, err = os.ReadFile(toolFile)
	require.NoError(t, err)
	assert.Equal(t, "package demo // edited\n", string(edited))

	stdout, stderr, code = scaffoldRun(t, "--force", "--root", root, "demo:greet")
	require.Equal(t, cli.ExitOK, code, stderr)
	assert.Contains(t, stdout, "wrote nativetools/demo/demo_greet.go")
	again, err := os.ReadFile(toolFile)
	require.NoError(t, err)
	assert.Equal(t, string(generated), string(again))
}

func TestScaffoldRejectsUnknownAndMissingNames(t *testing.T) {
	_, stderr, code := scaffoldRun(t)
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, stderr, "at least one command name")

	_, stderr, code = scaffoldRun(t, "--root", ".", "no:such-command")
	assert.Equal(t, cli.ExitFailed, code)
	assert.Contains(t, stderr, `scaffold no:such-command: no command of that name is registered`)
}
