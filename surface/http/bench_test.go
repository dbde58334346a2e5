package http_test

import (
	"context"
	"fmt"
	"io"
	"net"
	nethttp "net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/surface/events"
	surfacehttp "github.com/cmdbridge/cmdbridge/surface/http"
)

// BenchmarkPostTools is the bounded load test: N keep-alive clients POST t:echo (a
// native read tool) on loopback, b.N requests in all, capped at 30 seconds. It reports
// req/s and the p50/p99 latency, with durable (fsync group commit) and buffered evidence.
//
//	go test ./surface/http -run '^$' -bench PostTools -benchtime 20000x
func BenchmarkPostTools(b *testing.B) {
	for _, sync := range []struct {
		name string
		mode evidence.SyncMode
	}{{"durable", evidence.SyncGroup}, {"buffered", evidence.SyncBuffered}} {
		for _, clients := range []int{1, 16, 64} {
			b.Run(fmt.Sprintf("%s/clients=%d", sync.name, clients), func(b *testing.B) {
				loadTest(b, sync.mode, clients)
			})
		}
	}
}

func loadTest(b *testing.B, mode evidence.SyncMode, clients int) {
	started := make(chan struct{}, 1)
	k, err := assemble.Kernel(assemble.Config{
		Config: kernel.Config{
			Workspace: b.TempDir(),
			Evidence:  kernel.EvidenceConfig{Sync: mode},
		},
		Native: fixtureNative(b, started),
	})
	require.NoError(b, err)
	defer k.Close()
	srv, err := surfacehttp.New(surfacehttp.Config{Kernel: k, Key: testKey})
	require.NoError(b, err)
	defer srv.Close()
	ts := httptest.NewServer(srv)
	defer ts.Close()
	tok := mintToken(b, "bench", []string{"t:*"}, []string{"."}, nil, time.Hour)
	transport := &nethttp.Transport{
		DialContext:         (&net.Dialer{}).DialContext,
		MaxIdleConns:        clients,
		MaxIdleConnsPerHost: clients,
		MaxConnsPerHost:     clients,
	}
	defer transport.CloseIdleConnections()
	client := &nethttp.Client{Transport: transport}
	url := ts.URL + "/tools/t:echo"

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var next atomic.Int64
	lat := make([][]time.Duration, clients)
	var failures atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	begin := time.Now()
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(b.N) && ctx.Err() == nil {
				t0 := time.Now()
				req, _ := nethttp.NewRequestWithContext(ctx, "POST", url, strings.NewReader(`{"text":"hi"}`))
				req.Header.Set("Authorization", "Bearer "+tok)
				resp, err := client.Do(req)
				if err != nil {
					failures.Add(1)
					continue
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 || !strings.Contains(string(body), `"success":true`) {
					failures.Add(1)
				}
				lat[c] = append(lat[c], time.Since(t0))
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(begin)
	b.StopTimer()
	require.Zero(b, failures.Load(), "every request must succeed")
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	if len(all) == 0 {
		return
	}
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "req/s")
	b.ReportMetric(float64(all[len(all)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkPostTurns: keep-alive clients POST turns of four t:echo calls (one
// parallel-safe wave) with the event hub wired as 'cmdbridge serve' wires it, b.N turns
// in all, capped at 30 seconds; with nobody on the stream (turn events dropped) and with
// one SSE subscriber draining it. Reports turns/s, calls/s and p50/p99 per turn.
//
//	go test ./surface/http -run '^$' -bench PostTurns -benchtime 5000x
func BenchmarkPostTurns(b *testing.B) {
	for _, listen := range []bool{false, true} {
		for _, clients := range []int{1, 16} {
			b.Run(fmt.Sprintf("subscriber=%v/clients=%d", listen, clients), func(b *testing.B) {
				turnLoad(b, listen, clients)
			})
		}
	}
}

func turnLoad(b *testing.B, listen bool, clients int) {
	hub, err := events.NewHub(events.Config{Dir: b.TempDir(), Source: "bench", QueueSize: 4096})
	require.NoError(b, err)
	defer hub.Close()
	started := make(chan struct{}, 1)
	k, err := assemble.Kernel(assemble.Config{
		Config: kernel.Config{
			Workspace: b.TempDir(),
			Evidence:  kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
			OnResult:  surfacehttp.ToolCalledHook(surfacehttp.PublishToolCalled(hub, nil)),
		},
		Native: fixtureNative(b, started),
	})
	require.NoError(b, err)
	defer k.Close()
	srv, err := surfacehttp.New(surfacehttp.Config{Kernel: k, Key: testKey, Events: hub})
	require.NoError(b, err)
	defer srv.Close()
	ts := httptest.NewServer(srv)
	defer ts.Close()
	tok := mintToken(b, "bench", []string{"t:*"}, []string{"."}, nil, time.Hour)
	transport := &nethttp.Transport{MaxIdleConns: clients + 1, MaxIdleConnsPerHost: clients + 1}
	defer transport.CloseIdleConnections()
	client := &nethttp.Client{Transport: transport}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var drained sync.WaitGroup
	if listen {
		sctx, stop := context.WithCancel(ctx)
		defer func() { stop(); drained.Wait() }()
		req, _ := nethttp.NewRequestWithContext(sctx, "GET", ts.URL+"/events", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := client.Do(req)
		require.NoError(b, err)
		buf := make([]byte, 4096)
		n, _ := resp.Body.Read(buf) // the retry line: the subscriber is registered
		require.Positive(b, n)
		drained.Add(1)
		go func() {
			defer drained.Done()
			defer resp.Body.Close()
			_, _ = io.Copy(io.Discard, resp.Body)
		}()
	}

	const body = `{"calls":[{"tool":"t:echo","input":{"text":"a"}},{"tool":"t:echo","input":{"text":"b"}},` +
		`{"tool":"t:echo","input":{"text":"c"}},{"tool":"t:echo","input":{"text":"d"}}]}`
	var next, failures atomic.Int64
	lat := make([][]time.Duration, clients)
	var wg sync.WaitGroup
	b.ResetTimer()
	begin := time.Now()
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(b.N) && ctx.Err() == nil {
				t0 := time.Now()
				req, _ := nethttp.NewRequestWithContext(ctx, "POST", ts.URL+"/turns", strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+tok)
				resp, err := client.Do(req)
				if err != nil {
					failures.Add(1)
					continue
				}
				out, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 || !strings.Contains(string(out), `"outcome":"completed"`) {
					failures.Add(1)
				}
				lat[c] = append(lat[c], time.Since(t0))
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(begin)
	b.StopTimer()
	require.Zero(b, failures.Load(), "every turn must complete")
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	if len(all) == 0 {
		return
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "turns/s")
	b.ReportMetric(4*float64(len(all))/elapsed.Seconds(), "calls/s")
	b.ReportMetric(float64(all[len(all)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds()), "p99-µs")
	if listen {
		st := hub.Stats()
		b.ReportMetric(float64(st.DroppedSlow), "dropped")
	}
}
