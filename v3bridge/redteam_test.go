package v3bridge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	cliv2 "github.com/urfave/cli/v2"
	"github.com/urfave/cli/v3"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/internal/adopted"
	"github.com/cmdbridge/cmdbridge/internal/apptree"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/v3bridge"
)

// redteam is a v3 program with a command that runs and has a subcommand (notes, with
// notes purge under it) and two list flags, one trimmed (StringConfig.TrimSpace);
// *ran and *got are what a run did. It is served as the host serves it: from its
// manifest, with stand-in actions.
func redteam(ran *string, got *[]string) (func() *cli.Command, map[string]legacy.Command, error) {
	mk := func() *cli.Command {
		return &cli.Command{Name: "kit", Writer: io.Discard, ErrWriter: io.Discard,
			ExitErrHandler: func(context.Context, *cli.Command, error) {},
			Commands: []*cli.Command{{
				Name: "notes", ArgsUsage: "[<NAME>]",
				Flags: []cli.Flag{&cli.StringSliceFlag{Name: "file"}, &cli.StringSliceFlag{Name: "tag", Config: cli.StringConfig{TrimSpace: true}}},
				Action: func(_ context.Context, c *cli.Command) error {
					*ran, *got = "notes", append(append(c.StringSlice("file"), c.StringSlice("tag")...), c.Args().Slice()...)
					return nil
				},
				Commands: []*cli.Command{{Name: "purge", Action: func(context.Context, *cli.Command) error { *ran = "purge"; return nil }}},
			}, v3bridge.Command(nil)},
		}
	}
	cmds, err := serveKit(mk)
	return mk, cmds, err
}

// serveKit serves the program mk makes as the host does: from its manifest (its
// bridge command is "bridge"), with stand-in actions, by tool name.
func serveKit(mk func() *cli.Command) (map[string]legacy.Command, error) {
	var out bytes.Buffer
	root := mk()
	root.Writer = &out
	if err := root.Run(context.Background(), []string{root.Name, "bridge", adopted.ManifestWord}); err != nil {
		return nil, err
	}
	m, err := adopted.Decode(out.Bytes())
	if err != nil {
		return nil, err
	}
	stub := func([]string) cliv2.ActionFunc { return func(*cliv2.Context) error { return nil } }
	cs, err := legacy.FromApp(func() *cliv2.App { return apptree.Build(m.App, stub) }, legacy.TreeOptions{Meta: m.App.CommandMeta()})
	byName := map[string]legacy.Command{}
	for _, c := range cs {
		byName[c.Name] = c
	}
	return byName, err
}

// TestRedTeamPositionalCannotRunASubcommand: v3, like v2, runs the subcommand the first
// word after "--" names, so the tool notes given the positional "purge" would run kit
// notes purge. Argv refuses it; another word reaches notes as its positional.
func TestRedTeamPositionalCannotRunASubcommand(t *testing.T) {
	var ran string
	var got []string
	mk, cmds, err := redteam(&ran, &got)
	require.NoError(t, err)
	argv, err := adapter.Argv(cmds["notes"], json.RawMessage(`{"name":"purge"}`))
	assert.ErrorContains(t, err, `the first positional "purge" names a subcommand of kit notes`, "argv %q", argv)
	if err == nil {
		require.NoError(t, mk().Run(context.Background(), append([]string{"kit"}, argv...)))
		assert.Equal(t, "notes", ran, "argv %q ran another command", argv)
	}
	argv, err = adapter.Argv(cmds["notes"], json.RawMessage(`{"name":"purged"}`))
	require.NoError(t, err)
	require.NoError(t, mk().Run(context.Background(), append([]string{"kit"}, argv...)))
	assert.Equal(t, "notes", ran)
	assert.Equal(t, []string{"purged"}, got)
}

// TestRedTeamTrimmedListElement: a v3 list flag whose StringConfig says TrimSpace hands
// " /etc/passwd" (a relative name to the kernel) on as /etc/passwd: Argv refuses a
// padded element of it. A list without TrimSpace keeps white space, and gets the
// element as given.
func TestRedTeamTrimmedListElement(t *testing.T) {
	var ran string
	var got []string
	mk, cmds, err := redteam(&ran, &got)
	require.NoError(t, err)
	argv, err := adapter.Argv(cmds["notes"], json.RawMessage(`{"tag":["ok"," /etc/passwd"]}`))
	assert.ErrorContains(t, err, `property "tag": element 1 begins or ends with white space`, "argv %q", argv)
	argv, err = adapter.Argv(cmds["notes"], json.RawMessage(`{"file":[" /in/scope ","x"],"tag":["t"]}`))
	require.NoError(t, err)
	require.NoError(t, mk().Run(context.Background(), append([]string{"kit"}, argv...)))
	assert.Equal(t, []string{" /in/scope ", "x", "t"}, got, "argv %q", argv)
}

// TestRedTeamTrimmedStringFlag: a v3 string flag whose StringConfig says TrimSpace hands
// " /etc/shadow" (a relative name to the kernel's scope check) on as /etc/shadow: Argv
// refuses a padded value of it, and only of it.
func TestRedTeamTrimmedStringFlag(t *testing.T) {
	var got [2]string
	mk := func() *cli.Command {
		return &cli.Command{Name: "kit", Writer: io.Discard, ErrWriter: io.Discard,
			ExitErrHandler: func(context.Context, *cli.Command, error) {},
			Commands: []*cli.Command{{
				Name: "save",
				Flags: []cli.Flag{&cli.StringFlag{Name: "out", Config: cli.StringConfig{TrimSpace: true}},
					&cli.StringFlag{Name: "title"}},
				Action: func(_ context.Context, c *cli.Command) error {
					got = [2]string{c.String("out"), c.String("title")}
					return nil
				},
			}, v3bridge.Command(nil)},
		}
	}
	cmds, err := serveKit(mk)
	require.NoError(t, err)
	argv, err := adapter.Argv(cmds["save"], json.RawMessage(`{"out":" /etc/shadow"}`))
	assert.ErrorContains(t, err, `property "out" begins or ends with white space, which the command trims`, "argv %q", argv)
	argv, err = adapter.Argv(cmds["save"], json.RawMessage(`{"out":"in/scope","title":" padded "}`))
	require.NoError(t, err)
	require.NoError(t, mk().Run(context.Background(), append([]string{"kit"}, argv...)))
	assert.Equal(t, [2]string{"in/scope", " padded "}, got, "argv %q", argv)
}

// TestRedTeamCommandSeparators: v3 splits a list flag at the separator of the command
// that parses it, and each command has its own (a comma unless it says otherwise), so
// with the root's ";" a leaf's list splits at "," (its own) and ";" (the root's, for
// the flags written before the subcommand): an element holding either is refused. A
// leaf that disables splitting takes a comma as given (and is refused ";", the root's);
// under a root that disables it too, both.
func TestRedTeamCommandSeparators(t *testing.T) {
	var got []string
	mk := func() *cli.Command {
		action := func(_ context.Context, c *cli.Command) error { got = c.StringSlice("file"); return nil }
		return &cli.Command{Name: "kit", Writer: io.Discard, ErrWriter: io.Discard, SliceFlagSeparator: ";",
			ExitErrHandler: func(context.Context, *cli.Command, error) {},
			Commands: []*cli.Command{
				{Name: "pack", Flags: []cli.Flag{&cli.StringSliceFlag{Name: "file"}}, Action: action},
				{Name: "whole", Flags: []cli.Flag{&cli.StringSliceFlag{Name: "file"}}, Action: action, DisableSliceFlagSeparator: true},
				v3bridge.Command(nil),
			},
		}
	}
	cmds, err := serveKit(mk)
	require.NoError(t, err)
	for _, tc := range []struct{ tool, value string }{
		{"pack", "in/scope;/etc/passwd"}, {"pack", "in/scope,/etc/passwd"},
		{"whole", "in/scope;/etc/passwd"}, // the root's, for a flag given before the subcommand
	} {
		argv, err := adapter.Argv(cmds[tc.tool], json.RawMessage(`{"file":[`+strconv.Quote(tc.value)+`]}`))
		require.Error(t, err, "%s: argv %q", tc.tool, argv)
		assert.Contains(t, err.Error(), "into two values")
	}
	argv, err := adapter.Argv(cmds["whole"], json.RawMessage(`{"file":["a,b"]}`))
	require.NoError(t, err)
	require.NoError(t, mk().Run(context.Background(), append([]string{"kit"}, argv...)))
	assert.Equal(t, []string{"a,b"}, got, "argv %q", argv)

	mkWhole := func() *cli.Command {
		c := mk()
		c.SliceFlagSeparator, c.DisableSliceFlagSeparator = "", true
		return c
	}
	cmds, err = serveKit(mkWhole)
	require.NoError(t, err)
	argv, err = adapter.Argv(cmds["whole"], json.RawMessage(`{"file":["a,b;c"]}`))
	require.NoError(t, err)
	require.NoError(t, mkWhole().Run(context.Background(), append([]string{"kit"}, argv...)))
	assert.Equal(t, []string{"a,b;c"}, got, "argv %q", argv)
}

// TestHelpWordIsNotAPositional: v3 answers a first positional "help" or "h" with the
// command's help and runs nothing; Argv refuses it, unless the root or the leaf hides
// its help, when the command gets the word.
func TestHelpWordIsNotAPositional(t *testing.T) {
	var got string
	mk := func(hide bool) func() *cli.Command {
		return func() *cli.Command {
			return &cli.Command{Name: "kit", Writer: io.Discard, ErrWriter: io.Discard, HideHelp: hide,
				Commands: []*cli.Command{{Name: "say", ArgsUsage: "WORD",
					Action: func(_ context.Context, c *cli.Command) error { got = c.Args().First(); return nil }},
					v3bridge.Command(nil)}}
		}
	}
	for _, hide := range []bool{false, true} {
		cmds, err := serveKit(mk(hide))
		require.NoError(t, err)
		argv, err := adapter.Argv(cmds["say"], json.RawMessage(`{"word":"help"}`))
		if !hide {
			assert.ErrorContains(t, err, `the first positional "help" is a word kit say answers with its help`, "argv %q", argv)
			continue
		}
		require.NoError(t, err)
		got = ""
		require.NoError(t, mk(hide)().Run(context.Background(), append([]string{"kit"}, argv...)))
		assert.Equal(t, "help", got, "argv %q", argv)
	}
}
