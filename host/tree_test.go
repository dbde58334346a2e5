package host_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge"
	"github.com/cmdbridge/cmdbridge/host"
)

// mainEnv makes this test binary a standalone main of a small urfave/cli v2 program:
// "main" is host.Main, "tree" host.MainTree(host.V2(…)), the program behind the
// framework boundary.
const mainEnv = "HOST_TEST_MAIN"

func TestMain(m *testing.M) {
	cfg := &host.Config{Config: cmdbridge.Config{Effects: map[string]cmdbridge.Effects{"*": {ReadOnly: true}}}, InProcess: []string{"notes:list"}}
	switch os.Getenv(mainEnv) {
	case "main":
		os.Exit(host.Main(newApp, cfg))
	case "tree":
		os.Exit(host.MainTree(host.V2(newApp), cfg))
	}
	if len(os.Args) > 1 && os.Args[1] == "__program" {
		os.Exit(host.Main(newApp, cfg))
	}
	os.Exit(m.Run())
}

// newApp is the program: a notes group with a list and an add, flags of several kinds.
func newApp() *cli.App {
	return &cli.App{Name: "notes-v2", Usage: "keep notes", Flags: []cli.Flag{&cli.StringFlag{Name: "dir", Value: ".", Usage: "where"}},
		Commands: []*cli.Command{{Name: "notes", Usage: "work with notes", Subcommands: []*cli.Command{
			{Name: "list", Usage: "list notes", Flags: []cli.Flag{&cli.IntFlag{Name: "limit", Value: 10}, &cli.BoolFlag{Name: "all"}},
				ArgsUsage: " ",
				Action: func(c *cli.Context) error {
					fmt.Fprintf(c.App.Writer, "limit=%d all=%v\n", c.Int("limit"), c.Bool("all"))
					return nil
				}},
			{Name: "add", Usage: "add a note", ArgsUsage: "<title>", Flags: []cli.Flag{&cli.StringSliceFlag{Name: "tag"}, &cli.DurationFlag{Name: "remind"}},
				Action: func(c *cli.Context) error {
					fmt.Fprintf(c.App.Writer, "added %s %v\n", c.Args().First(), c.StringSlice("tag"))
					return nil
				}},
		}}}}
}

// TestV2BehindTheBoundary: the same v2 program served by host.Main and through the
// framework boundary (host.MainTree(host.V2(…))) lists the same tools with the same
// schemas and answers calls alike, in the process and as the program.
func TestV2BehindTheBoundary(t *testing.T) {
	ws := t.TempDir()
	run := func(how string, args ...string) string {
		t.Helper()
		cmd := exec.Command(os.Args[0], append([]string{"--workspace", ws}, args...)...)
		cmd.Env = append(os.Environ(), mainEnv+"="+how)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		require.NoError(t, cmd.Run(), "%s: %s", how, errOut.String())
		return out.String()
	}
	for _, args := range [][]string{
		{"tools", "list", "--json"},
		{"tools", "schema", "notes:list"},
		{"tools", "schema", "notes:add"},
	} {
		assert.Equal(t, run("main", args...), run("tree", args...), strings.Join(args, " "))
	}
	for _, call := range [][]string{
		{"call", "notes:list", "--input", `{"limit":3,"all":true}`},
		{"call", "notes:add", "--input", `{"title":"hi","tag":["a","b"],"remind":"5m"}`},
	} {
		main, tree := run("main", call...), run("tree", call...)
		for _, out := range []string{main, tree} {
			assert.Contains(t, out, `"success": true`, out)
		}
		assert.Equal(t, dataOf(t, main), dataOf(t, tree), strings.Join(call, " "))
	}
}

// dataOf is the data of a call's printed Output.
func dataOf(t *testing.T, out string) string {
	t.Helper()
	i := strings.Index(out, `"data"`)
	j := strings.Index(out, `"error"`)
	require.True(t, i >= 0 && j > i, out)
	return out[i:j]
}
