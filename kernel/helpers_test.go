package kernel_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// Inputs of the test tools.
type echoIn struct {
	Text  string   `json:"text,omitempty" jsonschema:"text to echo"`
	Count int      `json:"count,omitempty"`
	Tags  []string `json:"tags,omitempty"`
}

type pathIn struct {
	Path string `json:"path"`
}

type sleepIn struct {
	ID    int `json:"id"`
	Sleep int `json:"sleep_us,omitempty"`
}

// probe records concurrency for scheduler tests.
type probe struct {
	mu    sync.Mutex
	cur   int
	max   int
	order []int
}

func (p *probe) enter(id int) {
	p.mu.Lock()
	p.cur++
	p.max = max(p.max, p.cur)
	p.order = append(p.order, id)
	p.mu.Unlock()
}

func (p *probe) leave() {
	p.mu.Lock()
	p.cur--
	p.mu.Unlock()
}

// testRegistry builds native tools: echo (RO, parallel), write (path write), sleep
// (parallel-safe and not), block (waits for ctx), panic.
func testRegistry(t testing.TB, p *probe) *native.Registry {
	r := native.NewRegistry()
	add := func(tl native.Tool) { require.NoError(t, r.Add(tl)) }
	add(native.New(tool.Spec{Name: "test:echo", Description: "echo", ParallelSafe: true,
		Annotations: tool.Annotations{ReadOnlyHint: true}},
		func(ctx context.Context, env *tool.Env, in echoIn) tool.Output {
			if in.Text != "" {
				env.Note("echoed", in.Text)
			}
			return tool.OK(in)
		}))
	add(native.New(tool.Spec{Name: "test:write", Description: "write a path",
		Paths: []tool.PathInput{{Property: "path", Access: tool.Write}}},
		func(ctx context.Context, env *tool.Env, in pathIn) tool.Output {
			p.enter(0)
			defer p.leave()
			time.Sleep(5 * time.Millisecond)
			return tool.OK(in)
		}))
	// A parallel-safe writer: it skips the workspace write lock, so only the path locks
	// order it.
	add(native.New(tool.Spec{Name: "test:write-p", Description: "write a path, parallel-safe", ParallelSafe: true,
		Paths: []tool.PathInput{{Property: "path", Access: tool.Write}}},
		func(ctx context.Context, env *tool.Env, in pathIn) tool.Output {
			p.enter(0)
			defer p.leave()
			time.Sleep(5 * time.Millisecond)
			return tool.OK(in)
		}))
	add(native.New(tool.Spec{Name: "test:read", Description: "read a path", ParallelSafe: true,
		Annotations: tool.Annotations{ReadOnlyHint: true},
		Paths:       []tool.PathInput{{Property: "path", Access: tool.Read}}},
		func(ctx context.Context, env *tool.Env, in pathIn) tool.Output { return tool.OK(in) }))
	sleeper := func(ctx context.Context, env *tool.Env, in sleepIn) tool.Output {
		p.enter(in.ID)
		defer p.leave()
		select {
		case <-time.After(time.Duration(in.Sleep) * time.Microsecond):
			return tool.OK(in.ID)
		case <-ctx.Done():
			return tool.Fail(tool.CodeInternal, "interrupted")
		}
	}
	add(native.New(tool.Spec{Name: "test:sleep-r", Description: "parallel sleeper", ParallelSafe: true,
		Annotations: tool.Annotations{ReadOnlyHint: true}}, sleeper))
	add(native.New(tool.Spec{Name: "test:sleep-w", Description: "serial sleeper"}, sleeper))
	add(native.New(tool.Spec{Name: "test:destroy", Description: "destructive",
		Annotations: tool.Annotations{DestructiveHint: true}},
		func(ctx context.Context, env *tool.Env, in struct{}) tool.Output { return tool.OK(nil) }))
	add(native.New(tool.Spec{Name: "test:block", Description: "blocks until its context ends",
		DefaultTimeout: 20 * time.Millisecond, MaxTimeout: time.Second, Annotations: tool.Annotations{ReadOnlyHint: true}},
		func(ctx context.Context, env *tool.Env, in struct{}) tool.Output {
			// A deadline further away than MaxTimeout means the kernel did not clamp
			// the call's: say so at once instead of blocking until it comes.
			if d, ok := ctx.Deadline(); !ok || time.Until(d) > time.Second {
				return tool.Fail(tool.CodeExecutionFailed, "deadline not clamped to MaxTimeout (set: %v, in %v)", ok, time.Until(d))
			}
			<-ctx.Done()
			return tool.OK("late")
		}))
	return r
}

// fakeAdapter serves commands by echoing their input on both legacy lanes (plug it with
// assemble.Config.Lanes = fakeAdapter.lanes()); one call at a time like the real adapter lock.
type fakeAdapter struct {
	mu    sync.Mutex
	calls []fakeCall
	panic bool
}

// fakeCall is one call a fakeAdapter served, and the lane it came on.
type fakeCall struct {
	kernel.LaneCall
	Lane string
}

func (f *fakeAdapter) lanes() []kernel.Lane {
	return []kernel.Lane{fakeLane{f, kernel.LaneAdapter}, fakeLane{f, kernel.LaneSubprocess}}
}

// fakeLane is one legacy lane of a fakeAdapter.
type fakeLane struct {
	f    *fakeAdapter
	name string
}

func (l fakeLane) Name() string { return l.name }

func (l fakeLane) Run(ctx context.Context, call kernel.LaneCall) tool.Output {
	f := l.f
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.panic {
		panic("adapter exploded")
	}
	f.calls = append(f.calls, fakeCall{LaneCall: call, Lane: l.name})
	return tool.OK(json.RawMessage(call.Input)).WithMeta("exit_code", 0)
}

// testCommands are legacy commands taking a required id and a force switch; the adapter
// package derives their schema from those flags, as for any command.
func testCommands(t testing.TB, names ...string) *legacy.Registry {
	r := legacy.NewRegistry()
	for _, n := range names {
		require.NoError(t, r.Add(legacy.Command{Name: n, Domain: "wu",
			New: func() *cli.App {
				return &cli.App{Name: n, Usage: "legacy " + n, Flags: []cli.Flag{
					&cli.StringFlag{Name: "id", Required: true}, &cli.BoolFlag{Name: "force"}}}
			}, Main: func(context.Context) {}}))
	}
	return r
}

// testPack is the pack name of the test kernels: spellings may carry it as a prefix.
const testPack = "software-delivery"

type kopt func(*assemble.Config)

func newKernel(t testing.TB, p *probe, opts ...kopt) (*kernel.Kernel, string) {
	ws := t.TempDir()
	cfg := assemble.Config{
		Config: kernel.Config{
			Workspace: ws,
			Pack:      testPack,
			Evidence:  kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
		},
		Native:   testRegistry(t, p),
		Commands: testCommands(t, "wu:edit"),
		Lanes:    (&fakeAdapter{}).lanes(),
	}
	for _, o := range opts {
		o(&cfg)
	}
	k, err := assemble.Kernel(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })
	return k, ws
}

func req(toolName, input string) kernel.Request {
	return kernel.Request{Tool: toolName, Input: json.RawMessage(input), Caller: kernel.WorkspaceCaller("tester")}
}

func receipts(t testing.TB, ws string) []evidence.Receipt {
	data, err := os.ReadFile(filepath.Join(ws, ".cmdbridge", "evidence", evidence.ReceiptsFile))
	require.NoError(t, err)
	var out []evidence.Receipt
	dec := json.NewDecoder(bytesReader(data))
	for dec.More() {
		var r evidence.Receipt
		require.NoError(t, dec.Decode(&r))
		out = append(out, r)
	}
	return out
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

func runtimeGOMAXPROCS() int { return runtime.GOMAXPROCS(0) }
