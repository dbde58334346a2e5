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

// mainEnv makes this test binary a standalone main (host.Main) of a small urfave/cli v2
// program, which it serves through the framework boundary (host.V2).
const mainEnv = "HOST_TEST_MAIN"

func TestMain(m *testing.M) {
	cfg := &host.Config{Config: cmdbridge.Config{Effects: map[string]cmdbridge.Effects{"*": {ReadOnly: true}}}, InProcess: []string{"notes:list"}}
	if os.Getenv(mainEnv) != "" || len(os.Args) > 1 && os.Args[1] == "__program" {
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

// TestMainServesAV2Program: host.Main serves a v2 program's tree (through host.V2) as
// tools with their schemas, and answers a call in the process (notes:list, vouched
// for) and one that runs the program (notes:add, the subprocess lane) with the
// program's own output. (TestV2ThroughTheBoundaryAsFromTheApp holds every spec, tier
// and package to what serving the app itself gave.)
func TestMainServesAV2Program(t *testing.T) {
	ws := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(os.Args[0], append([]string{"--workspace", ws}, args...)...)
		cmd.Env = append(os.Environ(), mainEnv+"=1")
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		require.NoError(t, cmd.Run(), errOut.String())
		return out.String()
	}
	list := run("tools", "list", "--json")
	assert.Contains(t, list, `"notes:list"`)
	assert.Contains(t, list, `"notes:add"`)
	assert.Contains(t, run("tools", "schema", "notes:add"), `"remind"`)
	for call, want := range map[string][]string{
		`{"limit":3,"all":true}`:                       {"notes:list", `limit=3 all=true`, `"lane": "adapter"`},
		`{"title":"hi","tag":["a","b"],"remind":"5m"}`: {"notes:add", `added hi [a b]`, `"lane": "subprocess"`},
	} {
		out := run("call", want[0], "--input", call)
		assert.Contains(t, out, `"success": true`, out)
		assert.Contains(t, dataOf(t, out), want[1], out)
		assert.Contains(t, out, want[2], out)
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
