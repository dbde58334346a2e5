package integration_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/commandstest"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/internal/adoptconfig"
	"github.com/cmdbridge/cmdbridge/internal/hostconfig"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/surface/cli/clitest"
	"github.com/cmdbridge/cmdbridge/surface/cli/conductor"
)

// corpusHost is the host cmd/cmdbridge runs: the delivery corpus's commands, native
// tools, pack and runtime, and the conductor.
func corpusHost() cli.Host {
	return cli.Host{Config: hostconfig.Config{
		Config:   adoptconfig.Config{Pack: commands.Pack, Version: commands.Version, WorkspaceEnv: "DELIVERY_WORKSPACE"},
		Commands: commands.Default, Native: nativetools.Default, Runtime: delivery.ToolRuntime,
		ScriptEnv: delivery.ScriptEnv, ScriptPassEnv: delivery.ScriptPassEnv, Initialisms: delivery.Initialisms,
		ScaffoldRegistry: "github.com/cmdbridge/cmdbridge/nativetools.Register",
		Subcommands:      []*ucli.Command{conductor.Command()}, // the control plane, as cmd/cmdbridge has it
	}, Program: "delivery"}
}

// run calls the cmdbridge command line over the corpus in the workspace ws and returns
// stdout, stderr and the exit status; the subprocess lane runs the delivery program
// (commandstest).
func run(t *testing.T, ws string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	argv := append([]string{"cmdbridge", "--workspace", ws, "--bin", commandstest.Exe(t)}, args...)
	code := cli.Main(argv, &out, &errb, corpusHost())
	return out.String(), errb.String(), code
}

// TestToolsListRoutesTheMigratedCorpusNative: the corpus's routes.json sends every
// migrated command to the native lane, and tools list shows every command and the 9
// native-only tools.
func TestToolsListRoutesTheMigratedCorpusNative(t *testing.T) {
	stdout, _, code := run(t, clitest.Workspace(t), "tools", "list", "--json")
	require.Equal(t, 0, code)
	var rows []struct{ Name, Route string }
	require.NoError(t, json.Unmarshal([]byte(stdout), &rows))
	routes := map[string]string{}
	for _, r := range rows {
		routes[r.Name] = r.Route
	}
	for _, c := range commands.All() {
		assert.Equal(t, "native", routes[c.Name], "%s: migrated, routes.json sends it to the native lane", c.Name)
	}
	assert.Equal(t, "native", routes["git:status"])
	assert.Len(t, rows, len(commands.All())+9, "every command plus the 9 native-only tools")
}
