package v3host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v3"

	"github.com/cmdbridge/cmdbridge"
	"github.com/cmdbridge/cmdbridge/host"
	"github.com/cmdbridge/cmdbridge/v3bridge/v3host"
)

// mainEnv makes this test binary the standalone main of a small v3 program
// (v3host.Main); so does the hidden first argument with which the subprocess lane runs
// the program when none is installed.
const mainEnv = "V3HOST_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(mainEnv) != "" || len(os.Args) > 1 && os.Args[1] == "__program" {
		os.Exit(v3host.Main(newRoot, &host.Config{
			Config:    cmdbridge.Config{Effects: map[string]cmdbridge.Effects{"*": {ReadOnly: true}}},
			InProcess: []string{"echo", "fail"},
		}))
	}
	os.Exit(m.Run())
}

// newRoot is the program: echo repeats a word, shout capitalises it, fail exits 4
// through cli.Exit.
func newRoot() *cli.Command {
	return &cli.Command{Name: "echoer", Usage: "say words", Commands: []*cli.Command{
		{Name: "echo", Usage: "repeat a word", ArgsUsage: "<word>",
			Flags: []cli.Flag{&cli.IntFlag{Name: "times", Value: 1}},
			Action: func(_ context.Context, cmd *cli.Command) error {
				fmt.Fprintln(cmd.Root().Writer, strings.Repeat(cmd.Args().First(), int(cmd.Int("times"))))
				return nil
			}},
		{Name: "shout", Usage: "say a word loudly", ArgsUsage: "<word>",
			Action: func(_ context.Context, cmd *cli.Command) error {
				fmt.Fprintln(cmd.Root().Writer, strings.ToUpper(cmd.Args().First()))
				return nil
			}},
		{Name: "fail", Usage: "exit 4",
			Action: func(context.Context, *cli.Command) error { return cli.Exit("failing on purpose", 4) }},
	}}
}

// TestStandaloneMain: the standalone main lists the program's tools, runs those vouched
// for in its own process (a cli.Exit there ends the call, not the process) and the other
// as the program (this binary, run as it), each with the program's own output.
func TestStandaloneMain(t *testing.T) {
	ws := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(os.Args[0], append([]string{"--workspace", ws}, args...)...)
		cmd.Env = append(os.Environ(), mainEnv+"=1")
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		_ = cmd.Run() // a failed call exits non-zero; its Output is on stdout
		require.NotEmpty(t, out.String(), "%s", errOut.String())
		return out.String()
	}
	var rows []struct {
		Name string `json:"name"`
	}
	require.NoError(t, json.Unmarshal([]byte(run("tools", "list", "--json")), &rows))
	var names []string
	for _, r := range rows {
		names = append(names, r.Name)
	}
	assert.ElementsMatch(t, []string{"echo", "shout", "fail"}, names)

	type output struct {
		Success bool `json:"success"`
		Data    struct {
			Stdout string `json:"stdout"`
		} `json:"data"`
		Error *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		Metadata map[string]any `json:"metadata"`
	}
	for _, tc := range []struct{ tool, input, lane, stdout string }{
		{"echo", `{"word":"hi","times":2}`, "adapter", "hihi\n"},
		{"shout", `{"word":"hi"}`, "subprocess", "HI\n"},
	} {
		var out output
		got := run("call", tc.tool, "--input", tc.input)
		require.NoError(t, json.Unmarshal([]byte(got), &out), got)
		require.True(t, out.Success, got)
		assert.Equal(t, tc.lane, out.Metadata["lane"], tc.tool)
		assert.Equal(t, tc.stdout, out.Data.Stdout, tc.tool)
	}
	var out output
	got := run("call", "fail")
	require.NoError(t, json.Unmarshal([]byte(got), &out), got)
	require.NotNil(t, out.Error, got)
	assert.Equal(t, "adapter", out.Metadata["lane"])
	assert.Equal(t, "COMMAND_FAILED", out.Error.Code)
	assert.Contains(t, out.Error.Message, "exited with code 4: failing on purpose")
}
