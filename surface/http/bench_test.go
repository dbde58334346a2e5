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
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
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
	k, err := kernel.New(kernel.Config{
		Workspace: b.TempDir(), Native: fixtureNative(b, started),
		Evidence: kernel.EvidenceConfig{Sync: mode},
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
