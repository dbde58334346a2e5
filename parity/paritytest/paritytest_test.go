package paritytest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/parity"
	"github.com/cmdbridge/cmdbridge/parity/paritytest"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// newGreet is an adopter's app: one command printing a greeting.
func newGreet() *cli.App {
	return &cli.App{Name: "greet", ArgsUsage: "NAME", Action: func(c *cli.Context) error {
		fmt.Fprintf(c.App.Writer, "hello, %s\n", c.Args().First())
		return nil
	}}
}

// suite is a parity suite of one script for greet, with the native handler given.
func suite(t *testing.T, handler func(p *native.Plain, name string)) parity.Suite {
	t.Helper()
	cmds := legacy.NewRegistry()
	require.NoError(t, cmds.AddApp(newGreet, legacy.TreeOptions{}))
	// Vouched for in-process, so the adapter lane needs no binary.
	require.NoError(t, cmds.SetTiers(legacy.Table{Commands: legacy.Tiers{"greet": {Tier: legacy.TierInProcess}}}))
	type input struct {
		Name string `json:"name"`
	}
	nat := native.NewRegistry()
	require.NoError(t, nat.Add(native.New(tool.Spec{Name: "greet", Description: "greet"}, func(_ context.Context, _ *tool.Env, in input) tool.Output {
		p := native.Plain{Name: "greet"}
		handler(&p, in.Name)
		return p.Exit(0)
	})))
	dir := t.TempDir()
	script := "parity -lanes adapter,native greet '{\"name\":\"ada\"}'\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "greet.txtar"), []byte(script), 0o644))
	return parity.Suite{Dir: dir, Fixtures: t.TempDir(), Commands: cmds, Native: nat}
}

// TestCheckFailsAWrongHandler: a handler that prints something else than the command is
// a failure naming the tool, with the difference.
func TestCheckFailsAWrongHandler(t *testing.T) {
	_, failures, err := paritytest.Check(suite(t, func(p *native.Plain, name string) {
		fmt.Fprintf(&p.Stdout, "hi, %s\n", name)
	}), paritytest.Config{})
	require.NoError(t, err)
	require.Len(t, failures, 1)
	assert.Equal(t, "greet", failures[0].Tool)
	assert.Equal(t, parity.StatusFail, failures[0].Status)
	assert.Contains(t, failures[0].String(), "hello, ada")
}

// TestRunPassesARightHandler: the handler that prints what the command prints passes,
// as a subtest named after the tool.
func TestRunPassesARightHandler(t *testing.T) {
	s := suite(t, func(p *native.Plain, name string) {
		fmt.Fprintf(&p.Stdout, "hello, %s\n", name)
	})
	_, failures, err := paritytest.Check(s, paritytest.Config{})
	require.NoError(t, err)
	assert.Empty(t, failures)
	paritytest.Run(t, s, paritytest.Config{})
}

// TestCheckRefusesAnEmptySuite: no script is an error, never a silent pass.
func TestCheckRefusesAnEmptySuite(t *testing.T) {
	_, _, err := paritytest.Check(parity.Suite{Dir: t.TempDir(), Fixtures: t.TempDir(), Commands: legacy.NewRegistry()}, paritytest.Config{})
	assert.Error(t, err)
}
