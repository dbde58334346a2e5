package parity_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/parity"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// newEchoer is a plain program without subcommands: it prints --text, or {"text": …}
// with --doc, and with --fail prints to stderr and exits 3.
func newEchoer() *cli.App {
	return &cli.App{
		Name: "echoer",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "text"},
			&cli.BoolFlag{Name: "doc"},
			&cli.BoolFlag{Name: "fail"},
		},
		Action: func(c *cli.Context) error {
			if c.Bool("fail") {
				fmt.Println("partial")
				return cli.Exit("echoer: failed on purpose", 3)
			}
			if c.Bool("doc") {
				fmt.Printf("{\"text\": %q}\n", c.String("text"))
				return nil
			}
			fmt.Println(c.String("text"))
			fmt.Fprintln(os.Stderr, "echoer: done")
			return nil
		},
	}
}

type echoIn struct {
	Text string `json:"text,omitempty"`
	Doc  bool   `json:"doc,omitempty"`
	Fail bool   `json:"fail,omitempty"`
}

// echoParity runs echoer on the adapter and native lanes; native answers out.
func echoParity(t *testing.T, input string, out tool.Output) *parity.Report {
	t.Helper()
	cmds := legacy.NewRegistry()
	require.NoError(t, cmds.AddApp(newEchoer, legacy.TreeOptions{}))
	nat := native.NewRegistry()
	require.NoError(t, nat.Add(native.New(tool.Spec{Name: "echoer"}, func(context.Context, *tool.Env, echoIn) tool.Output { return out })))
	rep, err := parity.Run(context.Background(), "echoer", json.RawMessage(input), parity.Config{
		Workspace: t.TempDir(), Lanes: []string{parity.LaneAdapter, parity.LaneNative}, Commands: cmds, Native: nat,
	})
	require.NoError(t, err)
	return rep
}

// plainRun is what a native handler written with native.Plain answers.
func plainRun(stdout, stderr string, code int) tool.Output {
	p := native.Plain{Name: "echoer"}
	p.Stdout.WriteString(stdout)
	p.Stderr.WriteString(stderr)
	return p.Exit(code)
}

func streams(stdout, stderr string, code int) map[string]any {
	return map[string]any{"stdout": stdout, "stderr": stderr, "exit_code": code}
}

// TestPlainCommandStreamsOnEveryLane: a plain command's stdout, stderr and exit code
// are compared byte for byte with the native lane's, read back through the plain
// mapping; a printed JSON document is compared as data.
func TestPlainCommandStreamsOnEveryLane(t *testing.T) {
	failed := func(stdout, stderr string, code int) tool.Output {
		o := tool.Fail(tool.CodeCommandFailed, "echoer exited with code %d", code)
		raw, _ := json.Marshal(streams(stdout, stderr, code))
		o.Error.Details = json.RawMessage(raw)
		return o
	}
	for _, tc := range []struct {
		name, input string
		native      tool.Output
		diffs       []string // "kind path" of each difference
	}{
		{"text agrees", `{"text":"hi"}`, tool.OK(streams("hi\n", "echoer: done\n", 0)), nil},
		{"stderr differs", `{"text":"hi"}`, tool.OK(streams("hi\n", "echoer: ok\n", 0)), []string{"stream stderr"}},
		{"stdout lacks its newline", `{"text":"hi"}`, tool.OK(streams("hi", "echoer: done\n", 0)), []string{"stream stdout"}},
		{"failure agrees", `{"fail":true}`, failed("partial\n", "echoer: failed on purpose\n", 3), nil},
		{"failure exit code differs", `{"fail":true}`, failed("partial\n", "echoer: failed on purpose\n", 1), []string{"stream exit_code"}},
		{"failure without streams", `{"fail":true}`, tool.Fail(tool.CodeCommandFailed, "boom"),
			[]string{"output /error/details"}},
		{"document agrees", `{"text":"hi","doc":true}`, tool.OK(map[string]any{"text": "hi"}), nil},
		{"document differs", `{"text":"hi","doc":true}`, tool.OK(map[string]any{"text": "ho"}), []string{"output /data/text"}},
		// native.Plain keeps a document's bytes: they are compared byte for byte.
		{"document bytes agree", `{"text":"hi","doc":true}`, plainRun("{\"text\": \"hi\"}\n", "", 0), nil},
		{"document bytes differ", `{"text":"hi","doc":true}`, plainRun("{\"text\":\"hi\"}\n", "", 0), []string{"stream stdout"}},
		{"plain run agrees", `{"text":"hi"}`, plainRun("hi\n", "echoer: done\n", 0), nil},
		{"plain run exit code differs", `{"fail":true}`, plainRun("partial\n", "echoer: failed on purpose\n", 1), []string{"stream exit_code"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := echoParity(t, tc.input, tc.native)
			var got []string
			for _, d := range rep.Diffs {
				assert.Equal(t, "adapter/native", d.Lanes)
				got = append(got, d.Kind+" "+d.Path)
			}
			assert.Equal(t, tc.diffs, got, rep.String())
		})
	}
}

// TestSuiteRunsATreeLeafUnderItsProgram: a script's parity call on a tree leaf runs
// the subprocess lane as the leaf's own program (echoer, found on PATH), with no
// Binary and no Program configured; the plain command agrees on three lanes.
func TestSuiteRunsATreeLeafUnderItsProgram(t *testing.T) {
	cmds := legacy.NewRegistry()
	require.NoError(t, cmds.AddApp(newEchoer, legacy.TreeOptions{}))
	nat := native.NewRegistry()
	require.NoError(t, nat.Add(native.New(tool.Spec{Name: "echoer"}, func(_ context.Context, _ *tool.Env, in echoIn) tool.Output {
		return tool.OK(streams(in.Text+"\n", "echoer: done\n", 0))
	})))
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "echoer.txtar"),
		[]byte("parity echoer '{\"text\":\"hi\"}'\nstdout '\"stdout\": \"hi\\\\n\"'\n"), 0o644))
	suite := parity.Suite{Dir: dir, Commands: cmds, Native: nat}
	assert.Equal(t, []string{"echoer"}, suite.Programs())
	var lanes []string
	suite.Observe = func(_ string, rep *parity.Report, err error) {
		require.NoError(t, err)
		lanes = rep.Lanes
	}
	p, err := suite.Params()
	require.NoError(t, err)
	testscript.RunT(serialT{T: t}, p)
	assert.Equal(t, []string{parity.LaneSubprocess, parity.LaneAdapter, parity.LaneNative}, lanes)
}

// TestSuitePassesTheScriptsVariables: a variable the script sets reaches every lane of a
// call when the suite names it (Suite.PassEnv, or a key of Suite.Env), and no lane
// otherwise, as a process started by the script would (or would not) inherit it.
func TestSuitePassesTheScriptsVariables(t *testing.T) {
	cmds := legacy.NewRegistry()
	require.NoError(t, cmds.AddApp(func() *cli.App {
		return &cli.App{Name: "greeter", ArgsUsage: " ", Action: func(*cli.Context) error {
			fmt.Println("hello " + os.Getenv("GREETING") + os.Getenv("PUNCT"))
			return nil
		}}
	}, legacy.TreeOptions{}))
	nat := native.NewRegistry()
	require.NoError(t, nat.Add(native.New(tool.Spec{Name: "greeter"}, func(_ context.Context, env *tool.Env, _ struct{}) tool.Output {
		return tool.OK(streams("hello "+env.Getenv("GREETING")+env.Getenv("PUNCT")+"\n", "", 0))
	})))
	for _, tc := range []struct {
		name    string
		suite   parity.Suite
		printed string
	}{
		{"named", parity.Suite{PassEnv: []string{"GREETING"}, Env: map[string]string{"PUNCT": "!"}}, `hello world!\\n`},
		{"not named", parity.Suite{}, `hello \\n`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "greeter.txtar"), []byte(
				"env GREETING=world\nenv PUNCT=!\nparity -lanes adapter,native greeter '{}'\nstdout '\"stdout\": \""+tc.printed+"\"'\n"), 0o644))
			suite := tc.suite
			suite.Dir, suite.Commands, suite.Native = dir, cmds, nat
			var rep *parity.Report
			suite.Observe = func(_ string, r *parity.Report, err error) {
				require.NoError(t, err)
				rep = r
			}
			p, err := suite.Params()
			require.NoError(t, err)
			testscript.RunT(serialT{T: t}, p)
			require.NotNil(t, rep)
			assert.Empty(t, rep.Diffs, rep.String())
		})
	}
}
