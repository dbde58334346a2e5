package integration_test

import (
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/commandstest"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/internal/golden"
	"github.com/cmdbridge/cmdbridge/nativetools"
	_ "github.com/cmdbridge/cmdbridge/nativetools/all"
	"github.com/cmdbridge/cmdbridge/parity"
)

// serialT runs scripts one after another: the adapter lane swaps process
// globals (os.Stdout, flag.CommandLine…) while a command runs, and testscript
// reads flag.CommandLine (testing.Verbose) between the commands of parallel
// scripts.
type serialT struct {
	*testing.T
	verbose bool
	// passed, when set, records each script's outcome by subtest name.
	passed map[string]bool
}

func (serialT) Parallel() {}

func (t serialT) Verbose() bool { return t.verbose }

func (t serialT) Run(name string, f func(testscript.T)) {
	ok := t.T.Run(name, func(sub *testing.T) { f(serialT{T: sub, verbose: t.verbose}) })
	if t.passed != nil {
		t.passed[name] = ok
	}
}

// TestParityScripts is the corpus's parity proof: it runs every
// testdata/script/parity/*.txtar on every lane that exists for its tool: a tool that gains a native implementation in
// nativetools.Default is compared on four lanes with no script edit (subprocess,
// adapter, native cold on a copy, and warm: each script's native calls share one
// host store and one directory, so the warm workspace index built by its first call
// answers the later ones, after the script's own edits, the legacy lanes' writes and
// each sync). The scripts
// are shared among child processes (runSharded); the ratchet checks what all of
// them observed.
func TestParityScripts(t *testing.T) {
	dir := filepath.Join("..", "testdata", "script", "parity")
	bin := commandstest.Bin(t)
	merged := runSharded(t, dir, func(t *testing.T, files []string) shardResult {
		seen := &observed{}
		p, err := parity.Suite{
			Dir: dir, Files: files, Update: golden.Update(), Commands: commands.Default, Native: nativetools.Default, Runtime: delivery.ToolRuntime, Warm: true,
			Env: delivery.ScriptEnv, PassEnv: delivery.ScriptPassEnv,
			Program: "delivery", BinDir: bin,
			Observe: seen.observe,
		}.Params()
		require.NoError(t, err)
		passed := map[string]bool{}
		testscript.RunT(serialT{T: t, verbose: testing.Verbose(), passed: passed}, p)
		return shardResult{Passed: passed, Lanes: seen.lanes, Failed: seen.failed}
	})
	if merged != nil {
		checkRatchet(t, &observed{lanes: merged.Lanes, failed: merged.Failed}, merged.Passed)
	}
}
