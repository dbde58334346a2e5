package commands_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// probeRegistry registers commands whose mains record the os.Args they ran with.
func probeRegistry(t *testing.T, seen *[][]string) *legacy.Registry {
	t.Helper()
	r := legacy.NewRegistry()
	for _, c := range []struct{ name, domain, usage string }{
		{"wu:create", "wu", "create a work unit"},
		{"wu:claim", "wu", "claim a work unit"},
		{"mem:inbox", "memory", "read the inbox"},
	} {
		usage := c.usage
		require.NoError(t, r.Add(legacy.Command{
			Name:   c.name,
			Domain: c.domain,
			New:    func() *cli.App { return &cli.App{Usage: usage} },
			Main:   func(context.Context) { *seen = append(*seen, append([]string(nil), os.Args...)) },
		}))
	}
	return r
}

func TestDispatchRunsTheNamedCommand(t *testing.T) {
	cases := []struct {
		name string
		argv []string
		want []string
	}{
		{"subcommand", []string{"/usr/bin/delivery", "wu:create", "--title", "x"}, []string{"wu:create", "--title", "x"}},
		{"symlink named after the command", []string{"/opt/bin/wu:claim", "--id", "WU-1"}, []string{"wu:claim", "--id", "WU-1"}},
		{"no arguments", []string{"delivery", "mem:inbox"}, []string{"mem:inbox"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var seen [][]string
			r := probeRegistry(t, &seen)
			saved := os.Args
			var stdout, stderr bytes.Buffer
			code := commands.Dispatch(context.Background(), r, "delivery", tc.argv, &stdout, &stderr)
			assert.Equal(t, 0, code)
			require.Len(t, seen, 1)
			assert.Equal(t, tc.want, seen[0])
			assert.Equal(t, saved, os.Args, "os.Args must be restored")
			assert.Empty(t, stdout.String())
			assert.Empty(t, stderr.String())
		})
	}
}

func TestDispatchUnknownCommand(t *testing.T) {
	var seen [][]string
	r := probeRegistry(t, &seen)
	var stdout, stderr bytes.Buffer
	code := commands.Dispatch(context.Background(), r, "delivery", []string{"delivery", "wu:craete"}, &stdout, &stderr)
	assert.Equal(t, 2, code)
	assert.Empty(t, seen)
	assert.Equal(t, "[delivery] usage: unknown command \"wu:craete\" (did you mean \"wu:create\"?)\n", stderr.String())
	assert.Empty(t, stdout.String(), "no envelope without --json")

	stderr.Reset()
	code = commands.Dispatch(context.Background(), r, "delivery", []string{"delivery", "zzzzzzzzzz"}, &stdout, &stderr)
	assert.Equal(t, 2, code)
	assert.Equal(t, "[delivery] usage: unknown command \"zzzzzzzzzz\"\n", stderr.String(), "nothing close: no suggestion")
}

func TestDispatchUnknownCommandJSONEnvelope(t *testing.T) {
	var seen [][]string
	r := probeRegistry(t, &seen)
	cases := []struct {
		argv     []string
		envelope bool
	}{
		{[]string{"delivery", "wu:craete", "--json"}, true},
		{[]string{"delivery", "wu:craete", "--id", "x", "--json=true"}, true},
		{[]string{"delivery", "wu:craete", "--", "--json"}, false},
	}
	for _, tc := range cases {
		var stdout, stderr bytes.Buffer
		code := commands.Dispatch(context.Background(), r, "delivery", tc.argv, &stdout, &stderr)
		assert.Equal(t, 2, code, tc.argv)
		if !tc.envelope {
			assert.Empty(t, stdout.String(), tc.argv)
			continue
		}
		// Content only: spec 2.2 lists error keys as code, message, details, but the
		// dispatcher's envelope currently sorts them (reported to its owner).
		want := `{"ok": false, "command": "", "data": null, "warnings": [],
			"error": {"code": "USAGE", "message": "unknown command \"wu:craete\" (did you mean \"wu:create\"?)", "details": null}}`
		assert.JSONEq(t, want, stdout.String(), tc.argv)
		assert.True(t, strings.HasPrefix(stdout.String(), "{\n  \"ok\": false,\n  \"command\": \"\","), "2-space indent, ok first")
	}
}

func TestDispatchHelpAndVersion(t *testing.T) {
	var seen [][]string
	r := probeRegistry(t, &seen)
	for _, argv := range [][]string{{"delivery"}, {"delivery", "--help"}, {"delivery", "-h"}, {"delivery", "help"}} {
		var stdout, stderr bytes.Buffer
		code := commands.Dispatch(context.Background(), r, "delivery", argv, &stdout, &stderr)
		assert.Equal(t, 0, code, argv)
		want := "Usage: delivery <command> [flags] [arguments]\n\n3 commands:\n\n" +
			"memory:\n  mem:inbox  read the inbox\n\n" +
			"wu:\n  wu:claim   claim a work unit\n  wu:create  create a work unit\n\n" +
			"Run 'delivery <command> --help' for a command's flags.\n"
		assert.Equal(t, want, stdout.String(), argv)
		assert.Empty(t, stderr.String())
	}
	assert.Empty(t, seen, "help runs no command")

	var stdout, stderr bytes.Buffer
	assert.Equal(t, 0, commands.Dispatch(context.Background(), r, "delivery", []string{"delivery", "--version"}, &stdout, &stderr))
	assert.Equal(t, "delivery version "+commands.Version+"\n", stdout.String())
}

func TestSuggest(t *testing.T) {
	var seen [][]string
	r := probeRegistry(t, &seen)
	cases := map[string]string{
		"wu:craete": "wu:create",
		"wu_create": "wu:create",
		"WU:CLAIM":  "wu:claim",
		"mem-inbox": "mem:inbox",
		"gates":     "",
	}
	for in, want := range cases {
		assert.Equal(t, want, commands.Suggest(r, in), in)
	}
	assert.True(t, strings.HasPrefix(commands.Suggest(r, "wu:creat"), "wu:"))
}
