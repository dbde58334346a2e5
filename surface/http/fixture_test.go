package http_test

import (
	"bytes"
	"context"
	"io"
	nethttp "net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	surfacehttp "github.com/cmdbridge/cmdbridge/surface/http"
	"github.com/cmdbridge/cmdbridge/surface/http/token"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// The fixture is a private registry of native tools, so these tests depend neither on
// the delivery corpus nor on the adapter.

var testKey = bytes.Repeat([]byte{42}, token.KeySize)

type echoIn struct {
	Text string `json:"text,omitempty" jsonschema:"text to echo back"`
}

type pathIn struct {
	Path string `json:"path" jsonschema:"file to write, relative to the workspace"`
}

type noIn struct{}

// fixture is one kernel and server over the fixture tools, on a loopback listener.
type fixture struct {
	k       *kernel.Kernel
	srv     *surfacehttp.Server
	ts      *httptest.Server
	started chan struct{} // t:slow sends when it runs

	mu      sync.Mutex
	results []kernel.Result
	subject []string
	done    chan kernel.Result // every finished call, buffered
}

func fixtureNative(t testing.TB, started chan struct{}) *native.Registry {
	r := native.NewRegistry()
	add := func(tl native.Tool) { require.NoError(t, r.Add(tl)) }
	echo := func(ctx context.Context, env *tool.Env, in echoIn) tool.Output {
		return tool.OK(map[string]any{"text": in.Text})
	}
	add(native.New(tool.Spec{Name: "t:echo", Domain: "t", Description: "Echo the text back.",
		Annotations: tool.Annotations{ReadOnlyHint: true, IdempotentHint: true}, ParallelSafe: true}, echo))
	add(native.New(tool.Spec{Name: "t:slow", Domain: "t", Description: "Run until cancelled.",
		Annotations: tool.Annotations{ReadOnlyHint: true}},
		func(ctx context.Context, env *tool.Env, in noIn) tool.Output {
			started <- struct{}{}
			<-ctx.Done()
			return tool.Fail(tool.CodeCancelled, "t:slow: %v", ctx.Err())
		}))
	add(native.New(tool.Spec{Name: "t:write", Domain: "t", Description: "Pretend to write a file.",
		Paths: []tool.PathInput{{Property: "path", Access: tool.Write}}},
		func(ctx context.Context, env *tool.Env, in pathIn) tool.Output { return tool.OK(in.Path) }))
	add(native.New(tool.Spec{Name: "t:off", Domain: "t", Description: "Disabled by governance.",
		Annotations: tool.Annotations{ReadOnlyHint: true}}, echo))
	add(native.New(tool.Spec{Name: "t:gone", Domain: "t", Description: "Excluded by governance.",
		Annotations: tool.Annotations{ReadOnlyHint: true}}, echo))
	add(native.New(tool.Spec{Name: "secret:peek", Domain: "secret", Description: "Only wide tokens see this.",
		Annotations: tool.Annotations{ReadOnlyHint: true}}, echo))
	return r
}

// fixturePack is the pack name of the fixture's kernel (GET /tools shows it).
const fixturePack = "software-delivery"

func newFixture(t testing.TB, cfg surfacehttp.Config) *fixture {
	t.Helper()
	return newFixtureHook(t, cfg, nil)
}

// newFixtureHook also hands every finished call to hook (the events wiring).
func newFixtureHook(t testing.TB, cfg surfacehttp.Config, hook func(kernel.Request, kernel.Result)) *fixture {
	t.Helper()
	return buildFixture(t, cfg, hook, nil)
}

// buildFixture is newFixtureHook with extra tools added to the registry by extra (nil:
// none), so tests that need more tools leave the shared list and its goldens alone.
func buildFixture(t testing.TB, cfg surfacehttp.Config, hook func(kernel.Request, kernel.Result),
	extra func(r *native.Registry, started chan struct{})) *fixture {
	t.Helper()
	f := &fixture{started: make(chan struct{}, 16), done: make(chan kernel.Result, 1024)}
	nreg := fixtureNative(t, f.started)
	if extra != nil {
		extra(nreg, f.started)
	}
	k, err := assemble.Kernel(assemble.Config{
		Config: kernel.Config{
			Workspace:  t.TempDir(),
			Pack:       fixturePack,
			Governance: kernel.Governance{Disabled: []string{"t:off"}, Excluded: []string{"t:gone"}},
			Evidence:   kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
			OnResult: func(req kernel.Request, res kernel.Result) {
				f.mu.Lock()
				f.results = append(f.results, res)
				f.subject = append(f.subject, req.Caller.Subject)
				f.mu.Unlock()
				if hook != nil {
					hook(req, res)
				}
				select {
				case f.done <- res:
				default:
				}
			},
		},
		Native: nreg,
	})
	require.NoError(t, err)
	f.k = k
	cfg.Kernel = k
	if cfg.Key == nil {
		cfg.Key = testKey
	}
	f.srv, err = surfacehttp.New(cfg)
	require.NoError(t, err)
	f.ts = httptest.NewServer(f.srv)
	t.Cleanup(func() {
		f.srv.Close()
		f.ts.Close()
		require.NoError(t, k.Close())
	})
	return f
}

// mintToken signs a token with the test key; ttl < 0 makes one that has expired.
func mintToken(t testing.TB, subject string, tools, read, write []string, ttl time.Duration) string {
	t.Helper()
	now := time.Now()
	if ttl < 0 {
		now = now.Add(2 * ttl)
		ttl = -ttl
	}
	tok, _, err := token.Mint(testKey, token.MintOptions{Subject: subject, Tools: tools, Read: read, Write: write, TTL: ttl, Now: now})
	require.NoError(t, err)
	return tok
}

// response is what a test compares: status, every header, body.
type response struct {
	Status int
	Header nethttp.Header
	Body   string
}

func (f *fixture) do(t testing.TB, method, path, tok, body string, hdr ...string) response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := nethttp.NewRequest(method, f.ts.URL+path, rd)
	require.NoError(t, err)
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := f.ts.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return response{Status: resp.StatusCode, Header: resp.Header, Body: string(b)}
}

// waitResult returns the next finished call.
func (f *fixture) waitResult(t testing.TB) kernel.Result {
	t.Helper()
	select {
	case r := <-f.done:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("no call finished within 10s")
		return kernel.Result{}
	}
}

func (f *fixture) waitStarted(t testing.TB) {
	t.Helper()
	select {
	case <-f.started:
	case <-time.After(10 * time.Second):
		t.Fatal("t:slow did not start within 10s")
	}
}
