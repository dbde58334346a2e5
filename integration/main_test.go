package integration_test

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/all" // the corpus registers itself
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/internal/outsidetest"
	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/nativetools"
	_ "github.com/cmdbridge/cmdbridge/nativetools/all"
	"github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
)

// stdioEnv holds the workspace of the stdio server process: set, the test binary serves
// the corpus over MCP on its stdin and stdout instead of running tests.
const stdioEnv = "CMDBRIDGE_INTEGRATION_STDIO_WORKSPACE"

// testCaller is the identity the MCP servers are built with.
var testCaller = kernel.Caller{Subject: "integration-test", Read: []string{"."}, Write: []string{"."}}

func TestMain(m *testing.M) {
	if ws := os.Getenv(stdioEnv); ws != "" {
		os.Exit(serveStdio(ws))
	}
	if len(os.Args) > 1 && os.Args[1] == cli.SandboxRunCommand {
		// The sandbox lane's runner: the kernel starts this binary inside bwrap.
		os.Exit(cli.Main(append([]string{"cmdbridge"}, os.Args[1:]...), os.Stdout, os.Stderr, corpusHost()))
	}
	// outsidetest.M: the delivery program (commandstest) is built once per run.
	os.Exit(outsidetest.M(m).Run())
}

// serveStdio serves the corpus kernel in ws on the process's stdin and stdout until
// the client closes them or SIGTERM.
func serveStdio(ws string) int {
	k, err := corpusKernel(ws, kernel.View{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "kernel:", err)
		return 1
	}
	defer k.Close()
	ctx, stop := signal.NotifyContext(context.Background(), unix.SIGTERM)
	defer stop()
	if err := mcp.ServeStdio(ctx, k, testCaller, os.Stdin, os.Stdout, mcp.Config{}); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		return 1
	}
	return 0
}

// corpusKernel builds a kernel over the delivery corpus in workspace ws, as cmdbridge
// does (every command and native tool), narrowed to view.
func corpusKernel(ws string, view kernel.View) (*kernel.Kernel, error) {
	cfg := corpusConfig(ws)
	cfg.View = view
	return assemble.Kernel(cfg)
}

// corpusConfig is the configuration cmdbridge serves the corpus in workspace ws with
// (every command and native tool, the corpus's runtime), with buffered evidence; tests
// change what they exercise before assembling it.
func corpusConfig(ws string) assemble.Config {
	return assemble.Config{
		Config: kernel.Config{
			Workspace: ws,
			Evidence:  kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
		},
		Commands: commands.Default,
		Native:   nativetools.Default,
		Runtime:  delivery.ToolRuntime,
	}
}

// allowAll is a policy that allows every call (the attacks test scopes, not policy).
var allowAll = []kernel.Rule{{Tool: "*", Decision: kernel.Allow}}

// newCorpusKernel is corpusKernel for a test, closed when it ends.
func newCorpusKernel(t testing.TB, view kernel.View) *kernel.Kernel {
	t.Helper()
	k, err := corpusKernel(t.TempDir(), view)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = k.Close() })
	return k
}
