package adapter

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"
	"go.uber.org/goleak"

	"github.com/cmdbridge/cmdbridge/adapter/internal/hazard"
)

// globals is a printable snapshot of every process global a run could disturb, taken
// independently of the costume's own list so that a global the costume forgets shows up.
func globals(t *testing.T) map[string]string {
	t.Helper()
	fn := func(f any) string {
		v := reflect.ValueOf(f)
		if !v.IsValid() || v.IsNil() {
			return "nil"
		}
		return fmt.Sprintf("func@%x", v.Pointer())
	}
	ptr := func(p any) string { return fmt.Sprintf("%T@%p", p, p) }
	flagStruct := func(f cli.Flag) string { return fmt.Sprintf("%p %+v", f, f) }
	wd, err := os.Getwd()
	require.NoError(t, err)
	env := os.Environ()
	sort.Strings(env)
	return map[string]string{
		"os.Args": fmt.Sprintf("%p %q", os.Args, os.Args), "os.Stdin": ptr(os.Stdin), "os.Stdout": ptr(os.Stdout), "os.Stderr": ptr(os.Stderr),
		"cwd": wd, "env": strings.Join(env, "\n"),
		"log.Writer": ptr(log.Writer()), "log.Flags": fmt.Sprint(log.Flags()), "log.Prefix": log.Prefix(),
		"flag.CommandLine": ptr(flag.CommandLine), "flag.Usage": fn(flag.Usage),
		"cli.OsExiter": fn(cli.OsExiter), "cli.ErrWriter": fmt.Sprintf("%T@%p", cli.ErrWriter, cli.ErrWriter),
		"cli.HelpPrinter": fn(cli.HelpPrinter), "cli.HelpPrinterCustom": fn(cli.HelpPrinterCustom), "cli.VersionPrinter": fn(cli.VersionPrinter),
		"cli.HelpFlag": flagStruct(cli.HelpFlag), "cli.VersionFlag": flagStruct(cli.VersionFlag), "cli.BashCompletionFlag": flagStruct(cli.BashCompletionFlag),
		"cli.FlagStringer": fn(cli.FlagStringer), "cli.FlagNamePrefixer": fn(cli.FlagNamePrefixer),
		"cli.FlagEnvHinter": fn(cli.FlagEnvHinter), "cli.FlagFileHinter": fn(cli.FlagFileHinter),
		"cli.SuggestFlag": fn(cli.SuggestFlag), "cli.SuggestCommand": fn(cli.SuggestCommand), "cli.SuggestDidYouMeanTemplate": cli.SuggestDidYouMeanTemplate,
		"cli.AppHelpTemplate": cli.AppHelpTemplate, "cli.CommandHelpTemplate": cli.CommandHelpTemplate,
		"cli.SubcommandHelpTemplate": cli.SubcommandHelpTemplate, "cli.MarkdownDocTemplate": cli.MarkdownDocTemplate,
		"cli.FishCompletionTemplate": cli.FishCompletionTemplate,
	}
}

func TestEveryGlobalIsRestoredAfterEveryRun(t *testing.T) {
	// Warm up: the first urfave/cli run fills the shared flags' defaults once.
	Run(context.Background(), hazard.Lookup("echo"), nil, Config{})
	tmp := t.TempDir()
	for _, c := range hazard.Registry().All() {
		if c.Name == "hang" || c.Name == "init-logger" {
			continue // hang is covered by the timeout tests; init-logger writes to the host's stderr
		}
		t.Run(c.Name, func(t *testing.T) {
			before := globals(t)
			res := Run(context.Background(), c, []string{"--help"}, Config{Dir: tmp, Env: map[string]string{"HAZARD_VALUE": "x"}, Stdin: []byte("in")})
			require.Equal(t, Completed, res.Status)
			res = Run(context.Background(), c, nil, Config{Dir: tmp, Env: map[string]string{"HAZARD_VALUE": "x"}, Stdin: []byte("in")})
			require.Equal(t, Completed, res.Status)
			after := globals(t)
			for k, v := range before {
				assert.Equal(t, v, after[k], "%s changed by %s", k, c.Name)
			}
		})
	}
}

// meddle changes every global it can; the run must still look like a clean process to
// the next command, and the host must see nothing.
func TestMeddlingCommandLeavesNoTrace(t *testing.T) {
	Run(context.Background(), hazard.Lookup("echo"), nil, Config{})
	before := globals(t)
	res := Run(context.Background(), hazard.Lookup("meddle"), nil, Config{})
	require.Equal(t, 0, res.ExitCode)
	assert.Equal(t, "[meddle] meddled\n", string(res.Stderr))
	assert.Equal(t, before, globals(t))

	real := RunSubprocess(context.Background(), hazard.Lookup("echo"), []string{"--help"}, Config{Binary: binary})
	got := Run(context.Background(), hazard.Lookup("echo"), []string{"--help"}, Config{})
	assert.Equal(t, string(real.Stdout), string(got.Stdout), "help after meddle")
	assert.Contains(t, string(got.Stdout), "--help, -h")
}

func countFDs(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	require.NoError(t, err)
	return len(entries)
}

func TestThousandRunsLeakNothing(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	echo := hazard.Lookup("echo")
	Run(context.Background(), echo, []string{"warm"}, Config{})
	fds := countFDs(t)
	for i := 0; i < 1000; i++ {
		res := Run(context.Background(), echo, []string{"x"}, Config{Stdin: []byte("s"), Env: map[string]string{"HAZARD_VALUE": "v"}})
		require.Equal(t, "x\n", string(res.Stdout))
		require.Equal(t, 0, res.LeakedGoroutines)
	}
	assert.Equal(t, fds, countFDs(t), "file descriptors leaked")
}

func TestHostSurvivesEveryExitPath(t *testing.T) {
	// If any of these reached os.Exit the test binary would die here.
	for _, name := range []string{"panic", "exit-goroutine", "swallow", "goflag"} {
		argv := []string(nil)
		if name == "goflag" {
			argv = []string{"-nope"}
		}
		res := Run(context.Background(), hazard.Lookup(name), argv, Config{})
		assert.NotEqual(t, 0, res.ExitCode, name)
	}
	_, err := io.WriteString(io.Discard, "still alive")
	assert.NoError(t, err)
}
