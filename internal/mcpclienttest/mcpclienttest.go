// Package mcpclienttest starts the MCP clients nobody here wrote, pinned in
// testdata/mcpclient (installed by `make deps`), for the tests of the surfaces that
// serve MCP.
package mcpclienttest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cmdbridge/cmdbridge/internal/outsidetest"
)

// Dir is testdata/mcpclient, whatever the test's directory.
func Dir(t testing.TB) string {
	return filepath.Join(outsidetest.RepoRoot(t), "testdata", "mcpclient")
}

// Inspector returns a command running the MCP Inspector's CLI (`--cli` first, then
// args) under ctx, with a HOME of the test's own so its catalog file stays out of the
// user's. It skips the test when the host has no node, and fails it when node is there
// but the Inspector was never installed.
func Inspector(ctx context.Context, t testing.TB, args ...string) *exec.Cmd {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("host capability missing: Node.js (node on PATH) to run the MCP Inspector")
	}
	bin := filepath.Join(Dir(t), "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("node is installed but the MCP Inspector is not: run `make deps` (npm ci --prefix testdata/mcpclient)")
	}
	cmd := exec.CommandContext(ctx, node, append([]string{bin, "--cli"}, args...)...)
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "MCP_CATALOG_PATH="+filepath.Join(home, "catalog.json"))
	return cmd
}
