package adapter

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter/internal/hazard"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// stripTrace removes the goroutine dump Go prints after "panic: …", which the adapter
// cannot (and should not) reproduce.
func stripTrace(stderr []byte) []byte {
	if i := bytes.Index(stderr, []byte("\n\ngoroutine ")); i >= 0 && bytes.Contains(stderr[:i], []byte("panic: ")) {
		return stderr[:i+1]
	}
	return stderr
}

// sameBytes compares outputs, printing them only when they are short.
func sameBytes(t *testing.T, want, got []byte, msg string) {
	t.Helper()
	if len(want) > 4096 || len(got) > 4096 {
		assert.True(t, bytes.Equal(want, got), "%s: %d bytes wanted, %d bytes got", msg, len(want), len(got))
		return
	}
	assert.Equal(t, string(want), string(got), msg)
}

// waitIdle blocks until no run holds the adapter lock (a zombie has ended).
func waitIdle(t *testing.T) {
	t.Helper()
	select {
	case theLane.sem <- struct{}{}:
		<-theLane.sem
	case <-time.After(10 * time.Second):
		t.Fatal("adapter lane still busy after 10s")
	}
}

func TestHazardsMatchARealProcess(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	tenMiB := strings.Repeat("0123456789abcdef", 4096*16*10)
	goflagUsage := "Usage of goflag:\n  -name string\n    \twho to greet (default \"world\")\n"
	cases := []struct {
		name       string
		command    string
		argv       []string
		opts       Config
		wantCode   int
		wantStdout string
		wantStderr string
		wantLeaks  int
	}{
		{name: "echo", command: "echo", argv: []string{"a", "b c"}, wantStdout: "a b c\n"},
		{name: "ten MiB of output", command: "big", opts: Config{MaxOutput: 16 << 20}, wantStdout: tenMiB, wantStderr: "[big] done\n"},
		{name: "panic", command: "panic", wantCode: 2, wantStdout: "before\ndeferred print\n", wantStderr: "panic: boom\n"},
		{name: "exit from a goroutine", command: "exit-goroutine", wantCode: 3, wantStdout: "parent\nchild\n"},
		{name: "exit swallowed by recover", command: "swallow", wantCode: 4, wantStdout: "before exit\n"},
		{name: "log package", command: "logs", wantStdout: "done\n", wantStderr: "[logs] standard logger\n[logs] logger made at call time\n"},
		{name: "flag.CommandLine", command: "goflag", argv: []string{"-name=x", "a"}, wantStdout: "hello x [\"a\"]\n"},
		{name: "flag.CommandLine again", command: "goflag", argv: []string{"-name", "y"}, wantStdout: "hello y []\n"},
		{name: "flag.CommandLine bad flag", command: "goflag", argv: []string{"-nope"}, wantCode: 2, wantStderr: "flag provided but not defined: -nope\n" + goflagUsage},
		{name: "flag.CommandLine -help", command: "goflag", argv: []string{"-help"}, wantStderr: goflagUsage},
		{name: "stdin", command: "stdin", opts: Config{Stdin: []byte("abc")}, wantStdout: "3 bytes: ABC\n"},
		{name: "empty stdin", command: "stdin", wantStdout: "0 bytes: \n"},
		{name: "env set", command: "env", opts: Config{Env: map[string]string{"HAZARD_VALUE": "v 1"}}, wantStdout: "HAZARD_VALUE=\"v 1\" set=true\n"},
		{name: "env unset", command: "env", wantStdout: "HAZARD_VALUE=\"\" set=false\n"},
		{name: "chdir", command: "chdir", opts: Config{Dir: tmp}, wantStdout: "cwd " + tmp + "\nmoved\n"},
		{name: "slice flag from env", command: "slice-env", opts: Config{Env: map[string]string{"HAZARD_TAGS": "a,b"}}, wantStdout: "tags [\"a,b\"]\n"},
		{name: "slice flag without env", command: "slice-env", wantStdout: "tags []\n"},
		{name: "slice flag from argv", command: "slice-env", argv: []string{"--tag=x,y", "--tag", "z"}, wantStdout: "tags [\"x,y\" \"z\"]\n"},
		{name: "cli.Exit code", command: "echo", argv: []string{"--json", "--fail"}, wantCode: 1,
			wantStdout: "{\n  \"ok\": false,\n  \"command\": \"echo\",\n  \"data\": null,\n  \"error\": {\n    \"code\": \"NOT_FOUND\",\n    \"message\": \"nothing here\",\n    \"details\": null\n  },\n  \"warnings\": []\n}\n",
			wantStderr: "[echo] error: nothing here\n"},
		{name: "urfave usage error", command: "echo", argv: []string{"--bogus"}, wantCode: 1},
		// The goroutine runs until the test releases it, so the count never races a timer.
		{name: "leaked goroutine", command: "leak", argv: []string{"--for=1h"}, wantStdout: "started\n", wantLeaks: 1},
	}
	cwd, err := os.Getwd()
	require.NoError(t, err)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := hazard.Lookup(tc.command)
			opts := tc.opts
			opts.Binary = binary
			got := Run(context.Background(), c, tc.argv, opts)
			real := RunSubprocess(context.Background(), c, tc.argv, opts)
			hazard.Release()

			assert.Equal(t, LaneAdapter, got.Lane)
			assert.Equal(t, LaneSubprocess, real.Lane)
			assert.Equal(t, Completed, got.Status)
			assert.Equal(t, tc.wantCode, got.ExitCode, "adapter exit code; stderr: %s", got.Stderr)
			assert.Equal(t, tc.wantCode, real.ExitCode, "subprocess exit code; stderr: %s", real.Stderr)
			if tc.wantStdout != "" || tc.command != "echo" {
				sameBytes(t, []byte(tc.wantStdout), got.Stdout, "adapter stdout")
			}
			if tc.wantStderr != "" || tc.wantCode == 0 {
				assert.Equal(t, tc.wantStderr, string(got.Stderr), "adapter stderr")
			}
			sameBytes(t, real.Stdout, got.Stdout, "stdout differs between lanes")
			assert.Equal(t, string(stripTrace(real.Stderr)), string(got.Stderr), "stderr differs between lanes")
			assert.Equal(t, tc.wantLeaks, got.LeakedGoroutines)

			now, err := os.Getwd()
			require.NoError(t, err)
			assert.Equal(t, cwd, now, "the host's working directory moved")
		})
	}
}

// The one hazard in-process cannot match: a logger bound to os.Stderr at package init
// writes to the host's stderr, so its line is missing from the adapter's capture.
func TestInitBoundLoggerEscapesTheAdapter(t *testing.T) {
	c := hazard.Lookup("init-logger")
	got := Run(context.Background(), c, nil, Config{})
	real := RunSubprocess(context.Background(), c, nil, Config{Binary: binary})
	require.Equal(t, 0, got.ExitCode)
	require.Equal(t, 0, real.ExitCode)
	assert.Equal(t, "done\n", string(got.Stdout))
	assert.Equal(t, "done\n", string(real.Stdout))
	assert.Equal(t, "[init-logger] init-bound logger\n", string(real.Stderr))
	assert.Empty(t, string(got.Stderr), "the init-bound logger's line cannot be captured in-process")
}

func TestOutputIsCappedPerStream(t *testing.T) {
	c := hazard.Lookup("big")
	opts := Config{MaxOutput: 1 << 20, Binary: binary}
	for _, res := range []Result{
		Run(context.Background(), c, nil, opts),
		RunSubprocess(context.Background(), c, nil, opts),
	} {
		assert.Len(t, res.Stdout, 1<<20, res.Lane)
		assert.True(t, res.StdoutTruncated, res.Lane)
		assert.False(t, res.StderrTruncated, res.Lane)
		assert.Equal(t, "[big] done\n", string(res.Stderr), res.Lane)
	}
}

func TestTimeoutIs124AndLaterCallsGoToTheSubprocessLane(t *testing.T) {
	hang, echo := hazard.Lookup("hang"), hazard.Lookup("echo")
	opts := Config{Binary: binary}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()

	// A call queued behind the hang when it times out moves to the subprocess lane too.
	queued := make(chan Result, 1)
	go func() {
		for len(theLane.sem) == 0 {
			time.Sleep(time.Millisecond)
		}
		queued <- Run(context.Background(), echo, []string{"queued"}, opts)
	}()

	// The zombie sleeps until hazard.Release, so returning at all shows the caller did not
	// wait for it, and every call below runs while it is still there.
	got := Run(ctx, hang, []string{"--for=1h"}, opts)
	assert.Equal(t, ExitTimeout, got.ExitCode)
	assert.Equal(t, TimedOut, got.Status)
	assert.Equal(t, "sleeping\n", string(got.Stdout))
	assert.Equal(t, "[hang] timeout: the call's deadline passed before the command finished\n", string(got.Stderr))

	later := Run(context.Background(), echo, []string{"later"}, opts)
	assert.Equal(t, LaneSubprocess, later.Lane, "served while the zombie runs")
	assert.Equal(t, "later\n", string(later.Stdout))
	q := <-queued
	assert.Equal(t, LaneSubprocess, q.Lane)
	assert.Equal(t, "queued\n", string(q.Stdout))

	hazard.Release()
	waitIdle(t)
	after := Run(context.Background(), echo, []string{"after"}, opts)
	assert.Equal(t, LaneAdapter, after.Lane, "back in-process once the zombie ended")
	assert.Equal(t, "after\n", string(after.Stdout))
	assert.Equal(t, 0, after.ExitCode)
}

func TestSubprocessTimeoutKillsTheGroup(t *testing.T) {
	// The deadline leaves a loaded machine time to start the child and see it print; the
	// child would sleep far longer than any test timeout, so returning at all shows the
	// kill (no wall-clock assertion).
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	got := RunSubprocess(ctx, hazard.Lookup("hang"), []string{"--for=1h"}, Config{Binary: binary})
	assert.Equal(t, ExitTimeout, got.ExitCode)
	assert.Equal(t, TimedOut, got.Status)
	assert.Equal(t, "sleeping\n", string(got.Stdout))
	assert.Equal(t, "[hang] timeout: the call's deadline passed before the command finished\n", string(got.Stderr))
}

func TestCancelledIsNotATimeout(t *testing.T) {
	for _, lane := range []func(context.Context, legacy.Command, []string, Config) Result{Run, RunSubprocess} {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		got := lane(ctx, hazard.Lookup("hang"), []string{"--for=400ms"}, Config{Binary: binary})
		assert.Equal(t, Cancelled, got.Status, got.Lane)
		assert.Equal(t, ExitCancelled, got.ExitCode, got.Lane)
		assert.Equal(t, "[hang] cancelled: the caller cancelled the call before the command finished\n", string(got.Stderr), got.Lane)
		waitIdle(t)
	}
}

func TestLateCompletionIsStillATimeout(t *testing.T) {
	// The main ends by itself 50ms after the deadline; without Binary the call waits.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	got := Run(ctx, hazard.Lookup("hang"), []string{"--for=100ms"}, Config{})
	assert.Equal(t, TimedOut, got.Status)
	assert.Equal(t, ExitTimeout, got.ExitCode)
	waitIdle(t)
}

func TestCancelWhileQueued(t *testing.T) {
	hold := make(chan struct{})
	holder := legacy.Command{Name: "holder", New: hazard.Lookup("echo").New, Main: func(context.Context) { <-hold }}
	done := make(chan Result, 1)
	go func() { done <- Run(context.Background(), holder, nil, Config{}) }()
	for len(theLane.sem) == 0 {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	// The holder runs until close(hold) below, so returning at all shows the queued call
	// left the queue when cancelled.
	got := Run(ctx, hazard.Lookup("echo"), []string{"x"}, Config{})
	assert.Equal(t, Cancelled, got.Status)
	assert.Equal(t, ExitCancelled, got.ExitCode)
	assert.Equal(t, "[echo] cancelled: the caller cancelled the call while the call waited for the adapter lane\n", string(got.Stderr))
	assert.Empty(t, got.Stdout)

	close(hold)
	assert.Equal(t, 0, (<-done).ExitCode)
}

func TestRunsAreFIFO(t *testing.T) {
	var mu sync.Mutex
	var order []string
	hold := make(chan struct{})
	record := legacy.Command{Name: "record", New: hazard.Lookup("echo").New, Main: func(context.Context) {
		if len(os.Args) > 1 && os.Args[1] == "hold" {
			<-hold
			return
		}
		mu.Lock()
		order = append(order, os.Args[1])
		mu.Unlock()
	}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); Run(context.Background(), record, []string{"hold"}, Config{}) }()
	for len(theLane.sem) == 0 {
		time.Sleep(time.Millisecond)
	}
	var want []string
	for i := 0; i < 8; i++ {
		arg := fmt.Sprint(i)
		want = append(want, arg)
		wg.Add(1)
		go func() { defer wg.Done(); Run(context.Background(), record, []string{arg}, Config{}) }()
		for theLane.waiting.Load() != int32(i+1) {
			time.Sleep(time.Millisecond)
		}
	}
	close(hold)
	wg.Wait()
	assert.Equal(t, want, order)
}

// TestLeakCountedWhileTheHostEndsAGoroutine: a goroutine the main leaves running is
// counted even when one of the host's own goroutines ends during the run (the number of
// live goroutines then does not grow; counting it was the CI flake of the leak case).
func TestLeakCountedWhileTheHostEndsAGoroutine(t *testing.T) {
	stop := make(chan struct{})
	go func() { <-stop }()
	hazard.OnLeak = func() {
		live := runtime.NumGoroutine()
		close(stop)
		for runtime.NumGoroutine() >= live { // until the host's goroutine has ended
			runtime.Gosched()
		}
	}
	defer func() { hazard.OnLeak = nil }()
	got := Run(context.Background(), hazard.Lookup("leak"), []string{"--for=1h"}, Config{})
	hazard.Release()
	require.Equal(t, Completed, got.Status)
	assert.Equal(t, 1, got.LeakedGoroutines)
}
