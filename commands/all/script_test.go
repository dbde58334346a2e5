package all_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/all"
	"github.com/cmdbridge/cmdbridge/commands/commandstest"
	"github.com/cmdbridge/cmdbridge/internal/golden"
	"github.com/cmdbridge/cmdbridge/internal/outsidetest"
	"github.com/cmdbridge/cmdbridge/parity"
)

// exitFile is where both lanes record the last command's exit code, for `exitcode N`.
const exitFileVar = parity.ExitFileVar

// Variables the bridge lane hands to the in-process run, as a process would inherit them.
var bridgeEnv = []string{
	"DELIVERY_NOW", "DELIVERY_SEED", "DELIVERY_OWNER", "DELIVERY_WORKSPACE",
	"STALE_LOCK_THRESHOLD_HOURS", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "HOME", "USER",
	"GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0",
}

// noMaintenance is git configuration, as environment variables, that every git process of
// the scripts gets (gitinit's, the commands', the scripts' own): no `git maintenance run
// --auto` process after each commit, which in a repository of a few dozen objects finds
// nothing to do (about 240 processes a run of the suite).
var noMaintenance = [][2]string{
	{"GIT_CONFIG_COUNT", "1"}, {"GIT_CONFIG_KEY_0", "maintenance.auto"}, {"GIT_CONFIG_VALUE_0", "false"},
}

// TestMain gives the delivery program's build (commandstest) a directory that ends with
// the test binary.
func TestMain(m *testing.M) { os.Exit(outsidetest.M(m).Run()) }

// TestScripts runs every testdata/script/<domain>/*.txtar script twice: with `exec
// delivery` as a real process, and with each `exec delivery` rewritten to `bridge`, which
// runs the command in-process through adapter.Run. Both lanes must pass the same
// assertions, so stdout, stderr and exit codes agree byte for byte.
func TestScripts(t *testing.T) {
	// The scripts' `exec delivery`, and commands that run delivery themselves (wu:sandbox)
	// on either lane, find the delivery binary first on PATH.
	t.Setenv("PATH", commandstest.Bin(t)+string(filepath.ListSeparator)+os.Getenv("PATH"))
	// gitinit runs git with this process's environment.
	for _, kv := range noMaintenance {
		t.Setenv(kv[0], kv[1])
	}
	domains, err := filepath.Glob(filepath.Join("..", "..", "testdata", "script", "*"))
	require.NoError(t, err)
	require.NotEmpty(t, domains)
	for _, dir := range domains {
		domain := filepath.Base(dir)
		if domain == "parity" {
			continue // three-lane parity scripts: run by package parity with its own commands
		}
		t.Run(domain, func(t *testing.T) {
			t.Run("process", func(t *testing.T) {
				testscript.Run(t, params(dir, golden.Update()))
			})
			t.Run("bridge", func(t *testing.T) {
				testscript.RunT(serialT{T: t, verbose: testing.Verbose()}, params(bridgeCopy(t, dir), false))
			})
		})
	}
}

func params(dir string, update bool) testscript.Params {
	// Scripts copy shared workspaces from $FIXTURES (cp -r does not exist in testscript:
	// use `exec cp -r $FIXTURES/<name>/. .`) instead of embedding them. The path is taken
	// here, in the package directory, because the bridge lane runs copies of the scripts
	// from a temporary directory.
	fixtures, fixErr := filepath.Abs(filepath.Join("..", "..", "testdata", "workspaces"))
	return testscript.Params{
		Dir:                 dir,
		UpdateScripts:       update,
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			if fixErr != nil {
				return fmt.Errorf("fixtures directory: %w", fixErr)
			}
			env.Setenv("FIXTURES", fixtures)
			env.Setenv("DELIVERY_NOW", "2026-03-01T10:00:00.000Z")
			env.Setenv("DELIVERY_SEED", "cmdbridge")
			env.Setenv("DELIVERY_OWNER", "tester@example.com")
			env.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			env.Setenv("HOME", env.WorkDir)
			env.Setenv("USER", "tester")
			env.Setenv(exitFileVar, filepath.Join(env.WorkDir, ".tmp", "exitcode"))
			for _, kv := range noMaintenance {
				env.Setenv(kv[0], kv[1])
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"bridge":   cmdBridge,
			"exitcode": parity.Exitcode,
			"gitinit":  parity.Gitinit,
		},
	}
}

// serialT runs the bridge lane's scripts one after another. adapter.Run swaps process
// globals (os.Stdout, flag.CommandLine…) while a command runs, so nothing else in this
// process may read them meanwhile: testscript itself calls testing.Verbose, which reads
// flag.CommandLine, between the commands of parallel scripts.
type serialT struct {
	*testing.T
	verbose bool
}

func (serialT) Parallel() {}

func (t serialT) Verbose() bool { return t.verbose }

func (t serialT) Run(name string, f func(testscript.T)) {
	t.T.Run(name, func(sub *testing.T) { f(serialT{T: sub, verbose: t.verbose}) })
}

var execDelivery = regexp.MustCompile(`(?m)^(\s*(?:!\s+|\?\s+)?)exec delivery\b`)

// bridgeCopy copies the domain's scripts to a temporary directory with every `exec
// delivery` turned into `bridge`.
func bridgeCopy(t *testing.T, dir string) string {
	out := t.TempDir()
	scripts, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	require.NoError(t, err)
	for _, s := range scripts {
		data, err := os.ReadFile(s)
		require.NoError(t, err)
		rewritten := execDelivery.ReplaceAll(data, []byte("${1}bridge"))
		require.NoError(t, os.WriteFile(filepath.Join(out, filepath.Base(s)), rewritten, 0o644))
	}
	return out
}

// cmdBridge runs `bridge <command> args...` in-process through adapter.Run, in the
// script's directory with its environment, and writes the captured streams where
// stdout/stderr/cmp look.
func cmdBridge(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 {
		ts.Fatalf("usage: bridge <command> [args...]")
	}
	c, ok := commands.Lookup(args[0])
	if !ok {
		ts.Fatalf("bridge: unknown command %q", args[0])
	}
	env := map[string]string{}
	for _, k := range bridgeEnv {
		if v := ts.Getenv(k); v != "" {
			env[k] = v
		}
	}
	res := adapter.Run(context.Background(), c, args[1:], adapter.Config{Dir: ts.MkAbs("."), Env: env})
	_, _ = ts.Stdout().Write(res.Stdout)
	_, _ = ts.Stderr().Write(res.Stderr)
	ts.Check(os.WriteFile(ts.Getenv(exitFileVar), []byte(strconv.Itoa(res.ExitCode)), 0o644))
	if res.ExitCode != 0 && !neg {
		ts.Fatalf("bridge %s: exit code %d", args[0], res.ExitCode)
	}
	if res.ExitCode == 0 && neg {
		ts.Fatalf("bridge %s: unexpected success", args[0])
	}
}
