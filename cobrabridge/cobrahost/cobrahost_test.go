package cobrahost_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge"
	"github.com/cmdbridge/cmdbridge/cobrabridge/cobrahost"
	"github.com/cmdbridge/cmdbridge/host"
)

// mainEnv makes this test binary the standalone main of a small cobra program
// (cobrahost.Main), as an adopter's tools binary would be; so does the hidden first
// argument with which the subprocess lane runs the program when none is installed.
const mainEnv = "COBRAHOST_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(mainEnv) != "" || len(os.Args) > 1 && os.Args[1] == "__program" {
		os.Exit(cobrahost.Main(newRoot, &host.Config{
			Config:    cmdbridge.Config{Effects: map[string]cmdbridge.Effects{"*": {ReadOnly: true}}},
			InProcess: []string{"echo"},
		}))
	}
	os.Exit(m.Run())
}

// newRoot is the program: echo repeats a word, shout capitalises it.
func newRoot() *cobra.Command {
	root := &cobra.Command{Use: "echoer", Short: "say words", SilenceUsage: true}
	var times int
	echo := &cobra.Command{Use: "echo <word>", Short: "repeat a word", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintln(cmd.OutOrStdout(), strings.Repeat(args[0], times))
			return nil
		}}
	echo.Flags().IntVar(&times, "times", 1, "how many times")
	shout := &cobra.Command{Use: "shout <word>", Short: "say a word loudly", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintln(cmd.OutOrStdout(), strings.ToUpper(args[0]))
			return nil
		}}
	root.AddCommand(echo, shout)
	return root
}

// TestStandaloneMain: the standalone main lists the program's tools, runs the one
// vouched for in its own process and the other as the program (this binary, run as it:
// no echoer is installed), each with the program's own output.
func TestStandaloneMain(t *testing.T) {
	ws := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(os.Args[0], append([]string{"--workspace", ws}, args...)...)
		cmd.Env = append(os.Environ(), mainEnv+"=1")
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		require.NoError(t, cmd.Run(), "%s", errOut.String())
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
	assert.ElementsMatch(t, []string{"echo", "shout"}, names)

	for _, tc := range []struct{ tool, input, lane, stdout string }{
		{"echo", `{"word":"hi","times":2}`, "adapter", "hihi\n"},
		{"shout", `{"word":"hi"}`, "subprocess", "HI\n"},
	} {
		var out struct {
			Success bool `json:"success"`
			Data    struct {
				Stdout string `json:"stdout"`
			} `json:"data"`
			Metadata map[string]any `json:"metadata"`
		}
		got := run("call", tc.tool, "--input", tc.input)
		require.NoError(t, json.Unmarshal([]byte(got), &out), got)
		require.True(t, out.Success, got)
		assert.Equal(t, tc.lane, out.Metadata["lane"], tc.tool)
		assert.Equal(t, tc.stdout, out.Data.Stdout, tc.tool)
	}
}
