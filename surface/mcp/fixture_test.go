package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"
	"golang.org/x/sys/unix"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// The fixture is a small legacy command, written the way the corpus's commands are
// (a cli.App constructor, a main on os.Args, fmt to os.Stdout, exit through cli.Exit),
// and a handful of native tools, so these tests do not depend on the delivery corpus.

// hostStdout is bound at package init, as careless legacy code binds its writers: it
// is the process's descriptor 1, not whatever os.Stdout points at during a call.
var hostStdout = os.Stdout

// Stray lines the noisy greeting writes around its envelope.
const (
	strayViaPackageVar = "GARBAGE via a package-level copy of os.Stdout"
	strayViaFD1        = "GARBAGE written to descriptor 1"
)

func newGreetApp() *cli.App {
	return &cli.App{
		Name:  "fx:greet",
		Usage: "Greet someone by name.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "name", Usage: "who to greet", Required: true},
			&cli.BoolFlag{Name: "noisy", Usage: "also write stray lines to the process's stdout"},
			&cli.BoolFlag{Name: "json", Usage: "print the JSON envelope"},
		},
		Metadata: map[string]interface{}{legacy.MetaReadOnly: true, legacy.MetaIdempotent: true, legacy.MetaNoArgs: true},
		Action:   greetAction,
	}
}

func greetMain(ctx context.Context) {
	_ = newGreetApp().RunContext(ctx, os.Args)
}

func greetAction(c *cli.Context) error {
	if c.Bool("noisy") {
		fmt.Fprintln(hostStdout, strayViaPackageVar)
		_, _ = unix.Write(1, []byte(strayViaFD1+"\n"))
	}
	name := c.String("name")
	if name == "nobody" {
		printEnvelope(false, nil, map[string]any{"code": tool.CodeNotFound, "message": "nobody to greet", "details": nil})
		return cli.Exit("", 1)
	}
	printEnvelope(true, map[string]any{"greeting": "hello, " + name}, nil)
	return nil
}

func printEnvelope(ok bool, data any, errObj any) {
	b, _ := json.Marshal(map[string]any{"ok": ok, "command": "fx:greet", "data": data, "error": errObj, "warnings": []string{}})
	fmt.Println(string(b))
}

type echoIn struct {
	Text string `json:"text,omitempty" jsonschema:"text to echo back"`
}

type pathIn struct {
	Path string `json:"path" jsonschema:"file to write, relative to the workspace"`
}

type noIn struct{}

type sleepIn struct {
	MS int `json:"ms" jsonschema:"milliseconds to sleep"`
}

type bigIn struct {
	Bytes int `json:"bytes" jsonschema:"size of the text to return"`
}

// Timeouts of fx:sleep: a short default and a longer maximum a call may ask for.
const (
	sleepDefaultTimeout = 200 * time.Millisecond
	sleepMaxTimeout     = 20 * time.Second
)

// blockStarted receives a value when fx:block is running; blockRunning counts the
// fx:block calls running now, blockRuns every one that started.
var (
	blockStarted = make(chan struct{}, 1)
	blockRunning atomic.Int32
	blockRuns    atomic.Int32
)

// fixtureNative: echo (read-only, reports whether the call was interactive), fail (a
// tool failure), wipe (destructive: the default policy asks), write (a declared write
// path), off (disabled by governance), block (waits for cancellation) and hidden
// (excluded), sleep (short default timeout, longer maximum) and big (a result of any
// size).
func fixtureNative(t testing.TB) *native.Registry {
	r := native.NewRegistry()
	add := func(tl native.Tool) { require.NoError(t, r.Add(tl)) }
	add(native.New(tool.Spec{Name: "fx:echo", Description: "Echo the text back.",
		Annotations: tool.Annotations{Title: "Echo", ReadOnlyHint: true, IdempotentHint: true}},
		func(ctx context.Context, env *tool.Env, in echoIn) tool.Output {
			return tool.OK(map[string]any{"text": in.Text, "interactive": env.Interactive})
		}))
	add(native.New(tool.Spec{Name: "fx:fail", Description: "Always fails.",
		Annotations: tool.Annotations{ReadOnlyHint: true}},
		func(ctx context.Context, env *tool.Env, in noIn) tool.Output {
			return tool.FailDetails(tool.CodeNotFound, map[string]any{"id": "WU-404"}, "WU-404 does not exist")
		}))
	add(native.New(tool.Spec{Name: "fx:wipe", Description: "Delete everything.",
		Annotations: tool.Annotations{DestructiveHint: true, OpenWorldHint: true}},
		func(ctx context.Context, env *tool.Env, in noIn) tool.Output { return tool.OK("wiped") }))
	add(native.New(tool.Spec{Name: "fx:write", Description: "Write a file.",
		Paths: []tool.PathInput{{Property: "path", Access: tool.Write}}},
		func(ctx context.Context, env *tool.Env, in pathIn) tool.Output { return tool.OK(in.Path) }))
	add(native.New(tool.Spec{Name: "fx:off", Description: "Disabled by configuration.",
		Annotations: tool.Annotations{ReadOnlyHint: true}},
		func(ctx context.Context, env *tool.Env, in noIn) tool.Output { return tool.OK("on") }))
	add(native.New(tool.Spec{Name: "fx:block", Description: "Wait until the call is cancelled.",
		Annotations: tool.Annotations{ReadOnlyHint: true}},
		func(ctx context.Context, env *tool.Env, in noIn) tool.Output {
			blockRuns.Add(1)
			blockRunning.Add(1)
			defer blockRunning.Add(-1)
			select {
			case blockStarted <- struct{}{}:
			default:
			}
			<-ctx.Done()
			// The kernel may see this before or after its own cancellation: either way
			// the call ends CANCELLED, and only a cancelled context gets here.
			return tool.Fail(tool.CodeCancelled, "fx:block: %v", ctx.Err())
		}))
	add(native.New(tool.Spec{Name: "fx:sleep", Description: "Sleep, then answer (or end when the call is cancelled).",
		DefaultTimeout: sleepDefaultTimeout, MaxTimeout: sleepMaxTimeout,
		Annotations: tool.Annotations{ReadOnlyHint: true, IdempotentHint: true}},
		func(ctx context.Context, env *tool.Env, in sleepIn) tool.Output {
			select {
			case <-time.After(time.Duration(in.MS) * time.Millisecond):
				return tool.OK(map[string]any{"slept_ms": in.MS})
			case <-ctx.Done():
				return tool.Fail(tool.CodeCancelled, "fx:sleep: %v", ctx.Err())
			}
		}))
	add(native.New(tool.Spec{Name: "fx:big", Description: "Return a text of the given size.",
		Annotations: tool.Annotations{ReadOnlyHint: true, IdempotentHint: true}},
		func(ctx context.Context, env *tool.Env, in bigIn) tool.Output {
			return tool.OK(map[string]any{"text": strings.Repeat("x", in.Bytes)})
		}))
	add(native.New(tool.Spec{Name: "fx:hidden", Description: "Excluded by configuration.",
		Annotations: tool.Annotations{ReadOnlyHint: true}},
		func(ctx context.Context, env *tool.Env, in noIn) tool.Output { return tool.OK("seen") }))
	return r
}

func fixtureCommands(t testing.TB) *legacy.Registry {
	r := legacy.NewRegistry()
	require.NoError(t, r.Add(legacy.Command{Name: "fx:greet", Domain: "fx", New: newGreetApp, Main: greetMain}))
	return r
}

// testCaller is the identity the server is built with.
var testCaller = kernel.Caller{Subject: "mcp-test", Read: []string{"."}, Write: []string{"."}}

// newFixtureKernel builds a kernel over the fixture in workspace ws. onResult, when not
// nil, sees every finished call.
func newFixtureKernel(t testing.TB, ws string, onResult func(kernel.Request, kernel.Result)) *kernel.Kernel {
	k, err := assemble.Kernel(assemble.Config{
		Config: kernel.Config{
			Workspace:  ws,
			Governance: kernel.Governance{Disabled: []string{"fx:off"}, Excluded: []string{"fx:hidden"}},
			Evidence:   kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
			OnResult:   onResult,
		},
		Commands: fixtureCommands(t),
		Native:   fixtureNative(t),
	})
	require.NoError(t, err)
	return k
}
