package mcp_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain doubles as the stdio server process: the stdio test re-executes the test
// binary with childEnv set, and that process serves MCP on its own stdin and stdout.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(stdioChild())
	}
	goleak.VerifyTestMain(m)
}
