package helptree_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/internal/outsidetest"
	"github.com/cmdbridge/cmdbridge/tool/legacy/helptree"
)

// TestMain gives the outside modules' builds a directory that ends with the test binary.
func TestMain(m *testing.M) { os.Exit(outsidetest.M(m).Run()) }

// plainPrograms builds the outside modules as their authors ship them: dbkit (its
// commands in package main) and gizmo (a command tree, inherited flags, variadic
// positionals) without cmdbridge.
func plainPrograms(t *testing.T) map[string]string {
	t.Helper()
	root, err := filepath.Abs("../../..")
	require.NoError(t, err)
	dbkit := outsidetest.Build(t, "dbkit-plain", outsidetest.DBKitPlain(root))
	gizmo := outsidetest.Build(t, "gizmo-plain", outsidetest.GizmoPlain(root))
	return map[string]string{"dbkit": dbkit.Exe("dbkit"), "gizmo": gizmo.Exe("gizmo-plain")}
}

// TestDiscoverRoundTrips: the app described from a program's help prints, page for
// page, the help the program prints. Every section a page has (names and aliases,
// usages, positional usage, flags with placeholders, defaults and environment
// variables, subcommands) survives the trip.
func TestDiscoverRoundTrips(t *testing.T) {
	for name, exe := range plainPrograms(t) {
		t.Run(name, func(t *testing.T) {
			tree, err := helptree.Discover(context.Background(), exe, helptree.Config{})
			require.NoError(t, err)
			assert.Empty(t, tree.Warnings(), "everything the outside modules print is read")
			pages := 0
			var walk func(n *helptree.Node)
			walk = func(n *helptree.Node) {
				require.NotNil(t, n.Page, "%v", n.Path)
				args := append(append([]string(nil), n.Path...), "--help")
				want, err := exec.Command(exe, args...).Output()
				require.NoError(t, err)
				app := tree.App()
				var got bytes.Buffer
				app.Writer = &got
				require.NoError(t, app.Run(append([]string{tree.Name()}, args...)))
				assert.Equal(t, string(want), got.String(), "%s %v", name, args)
				pages++
				for _, c := range n.Children {
					walk(c)
				}
			}
			walk(tree.Root)
			assert.Greater(t, pages, 5)
		})
	}
}

// TestDiscoverStubsNeverRun: a described leaf's action fails if anything runs it.
func TestDiscoverStubsNeverRun(t *testing.T) {
	tree, err := helptree.Discover(context.Background(), plainPrograms(t)["dbkit"], helptree.Config{})
	require.NoError(t, err)
	app := tree.App()
	app.Writer, app.ErrWriter = &bytes.Buffer{}, &bytes.Buffer{}
	app.ExitErrHandler = func(*cli.Context, error) {}
	err = app.Run([]string{"dbkit", "--url", "file:x", "drop"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "only describes it")
}

// TestDiscoverBounds: a depth limit and a command cap leave the rest out, with warnings
// on the tools they concern.
func TestDiscoverBounds(t *testing.T) {
	exe := plainPrograms(t)["gizmo"]
	tree, err := helptree.Discover(context.Background(), exe, helptree.Config{Depth: 1})
	require.NoError(t, err)
	ws := tree.Warnings()
	require.Contains(t, ws, "notes")
	assert.Contains(t, ws["notes"][0], "gizmo notes: its subcommands (add, list, show, rm, export) lie below the depth limit of 1")
	assert.NotContains(t, ws, "version")

	tree, err = helptree.Discover(context.Background(), exe, helptree.Config{Commands: 2})
	require.NoError(t, err)
	var names []string
	for _, c := range tree.App().Commands {
		names = append(names, c.Name)
	}
	assert.Equal(t, []string{"notes", "text"}, names)
	assert.Contains(t, strings.Join(tree.Warnings()["text"], "\n"), "subcommands version are left out: more than 2 commands")
}

// TestDiscoverRefusesOtherPrograms: a program that is not urfave/cli, that cannot be
// found or that never answers gets an error saying what to do, and no hang.
func TestDiscoverRefusesOtherPrograms(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755))
		return p
	}
	for _, tc := range []struct{ program, want string }{
		{script("garbage", `echo "usage: garbage [-x] FILE"; exit 2`), `printed no urfave/cli v2 help: no NAME: and USAGE: sections (it begins "usage: garbage [-x] FILE") (exit status 2)`},
		{script("silent", `exit 0`), "printed no urfave/cli v2 help: it printed nothing"},
		{script("sleeper", `exec sleep 600`), "--help: it did not finish within 200ms"},
		{filepath.Join(dir, "missing"), "not found"},
		{"no-such-program-anywhere", `program "no-such-program-anywhere" not found`},
		{dir, "it is a directory"},
	} {
		_, err := helptree.Discover(context.Background(), tc.program, helptree.Config{Timeout: 200 * time.Millisecond})
		require.Error(t, err, tc.program)
		assert.Contains(t, err.Error(), tc.want)
	}
}

// TestDiscoverRunsNoCommand: a command that skips flag parsing would run its action on
// `NAME --help`; where the parent offers urfave/cli's help command, discovery asks it
// instead, so the command never runs. (A shell script in urfave/cli's shape: `run
// --help` leaves a mark.)
func TestDiscoverRunsNoCommand(t *testing.T) {
	dir := t.TempDir()
	mark := filepath.Join(dir, "ran")
	prog := filepath.Join(dir, "prog")
	require.NoError(t, os.WriteFile(prog, []byte(`#!/bin/sh
case "$*" in
--help) printf 'NAME:\n   prog - runs things\n\nUSAGE:\n   prog command [command options]\n\nCOMMANDS:\n   run      run a program\n   help, h  Shows a list of commands or help for one command\n';;
"help run") printf 'NAME:\n   prog run - run a program\n\nUSAGE:\n   prog run [command options] -- ARGS...\n\nOPTIONS:\n   --help, -h  show help\n';;
*) touch `+mark+`; echo "ran: $*";;
esac
`), 0o755))
	tree, err := helptree.Discover(context.Background(), prog, helptree.Config{})
	require.NoError(t, err)
	assert.NoFileExists(t, mark, "discovery ran the command")
	require.Len(t, tree.App().Commands, 1)
	assert.Equal(t, "-- ARGS...", tree.App().Commands[0].ArgsUsage)
	assert.Empty(t, tree.Warnings())
}

// TestDiscoverAppWithoutCommands: an app without subcommands is one leaf, its
// positional usage read after "[global options]".
func TestDiscoverAppWithoutCommands(t *testing.T) {
	prog := filepath.Join(t.TempDir(), "one")
	require.NoError(t, os.WriteFile(prog, []byte(`#!/bin/sh
printf 'NAME:\n   one - does one thing\n\nUSAGE:\n   one [global options] FILE [FILE...]\n\nGLOBAL OPTIONS:\n   --force, -f    do it anyway (default: false)\n   --help, -h     show help\n'
`), 0o755))
	tree, err := helptree.Discover(context.Background(), prog, helptree.Config{})
	require.NoError(t, err)
	app := tree.App()
	assert.Equal(t, "one", app.Name)
	assert.Equal(t, "FILE [FILE...]", app.ArgsUsage)
	assert.Empty(t, app.Commands)
	require.Len(t, app.Flags, 1)
	assert.Equal(t, []string{"force", "f"}, app.Flags[0].Names())
	assert.NotNil(t, app.Action, "the one leaf is a stub")
}
