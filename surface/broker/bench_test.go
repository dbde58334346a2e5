package broker_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/broker"
	"github.com/cmdbridge/cmdbridge/surface/events"
)

// fleet is the number of simulated sidecars of every benchmark here: bounded, in one
// process, on loopback.
const fleet = 100

// BenchmarkEvents100Sidecars measures events per second end to end from 100 sidecars'
// hubs to one control plane: through JetStream (durable kinds drained from each outbox
// to the event stream and read by one pull consumer; ephemeral kinds as plain
// publishes to one subscription) and through SSE (the control plane holds one GET
// /events stream per sidecar). b.N events are spread evenly over the sidecars, each
// publishing from its own goroutine. events/s counts from the first publish to the
// last event received; lost/op is the share of ephemeral events dropped on the way.
func BenchmarkEvents100Sidecars(b *testing.B) {
	for _, kind := range []string{"durable", "ephemeral"} {
		for _, path := range []string{"jetstream", "sse"} {
			b.Run(kind+"/"+path, func(b *testing.B) { benchEvents(b, kind == "durable", path) })
		}
	}
}

func benchEvents(b *testing.B, durable bool, path string) {
	var node *natsNode
	var js jetstream.JetStream
	var cpConn *nats.Conn
	if path == "jetstream" {
		node = singleNode(b)
		cpConn = connect(b, node.url())
		js = ensureStreams(b, cpConn, 1)
	}
	per := (b.N + fleet - 1) / fleet
	total := per * fleet
	var received atomic.Int64
	var last atomic.Int64 // unix nanos of the last event received
	got := func() { received.Add(1); last.Store(time.Now().UnixNano()) }

	hubs := make([]*events.Hub, fleet)
	for i := range fleet {
		dir := b.TempDir()
		var sc *broker.Sidecar
		cfg := events.Config{Dir: filepath.Join(dir, "events"), Source: fmt.Sprintf("ws-%03d", i), QueueSize: 4096}
		if path == "jetstream" {
			cfg.Forward = func(e events.Event, d bool) { sc.Forward(e, d) }
		}
		hub, err := events.NewHub(cfg)
		require.NoError(b, err)
		b.Cleanup(func() { _ = hub.Close() })
		hubs[i] = hub
		if path == "jetstream" {
			nc := connect(b, node.url())
			sc, err = broker.New(broker.Config{Conn: nc, Subject: cfg.Source, EphemeralQueue: 4096})
			require.NoError(b, err)
			require.NoError(b, sc.Start(hub))
			b.Cleanup(func() { _ = sc.Close() })
		}
	}

	switch {
	case path == "jetstream" && durable:
		cons, err := js.CreateOrUpdateConsumer(context.Background(), broker.EventStream, jetstream.ConsumerConfig{
			Durable: "bench", AckPolicy: jetstream.AckNonePolicy, DeliverPolicy: jetstream.DeliverNewPolicy})
		require.NoError(b, err)
		cc, err := cons.Consume(func(jetstream.Msg) { got() }, jetstream.PullMaxMessages(1024))
		require.NoError(b, err)
		b.Cleanup(cc.Stop)
	case path == "jetstream":
		sub, err := cpConn.Subscribe("cmdbridge.*.events.>", func(*nats.Msg) { got() })
		require.NoError(b, err)
		require.NoError(b, sub.SetPendingLimits(-1, -1))
		require.NoError(b, cpConn.Flush())
	default:
		for _, hub := range hubs {
			ts := httptest.NewServer(hub.Handler())
			b.Cleanup(ts.Close)
			resp, err := http.Get(ts.URL + "/events")
			require.NoError(b, err)
			b.Cleanup(func() { _ = resp.Body.Close() })
			go func() {
				sc := bufio.NewScanner(resp.Body)
				for sc.Scan() {
					if strings.HasPrefix(sc.Text(), "data: ") {
						got()
					}
				}
			}()
		}
		for _, hub := range hubs {
			for hub.Stats().Subscribers == 0 {
				time.Sleep(time.Millisecond)
			}
		}
	}

	ctx := context.Background()
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for i, hub := range hubs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range per {
				var e events.Event
				if durable {
					e = events.Command("bench", "step", map[string]any{"i": n})
				} else {
					e = events.ToolCalled(fmt.Sprintf("run-%d", i), fmt.Sprint(n), "t:echo", nil)
				}
				if _, err := hub.Publish(ctx, e); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	// Wait for everything, or for the stream to go quiet (ephemeral events may be lost).
	deadline := time.Now().Add(2 * time.Minute)
	for received.Load() < int64(total) && time.Now().Before(deadline) {
		before := received.Load()
		time.Sleep(200 * time.Millisecond)
		if !durable && received.Load() == before && time.Since(time.Unix(0, last.Load())) > time.Second {
			break
		}
	}
	b.StopTimer()
	n := received.Load()
	if durable && n < int64(total) {
		b.Fatalf("%d of %d durable events arrived", n, total)
	}
	elapsed := time.Unix(0, last.Load()).Sub(start)
	b.ReportMetric(float64(n)/elapsed.Seconds(), "events/s")
	b.ReportMetric(float64(int64(total)-n)/float64(total), "lost/op")
}

// BenchmarkToolCall100Sidecars measures a read tool's round trip, one control plane
// calling 100 sidecars in turn: over NATS request/reply and over HTTP POST /tools
// (keep-alive), sequentially (ns/op is the round trip) and from 100 concurrent callers.
func BenchmarkToolCall100Sidecars(b *testing.B) {
	node := singleNode(b)
	nc := connect(b, node.url())
	var runs atomic.Int64
	urls := make([]string, fleet)
	for i := range fleet {
		conn := connect(b, node.url())
		w := newWorkspace(b, conn, fmt.Sprintf("ws-%03d", i), b.TempDir(), b.TempDir(), &runs, nil)
		ts := httptest.NewServer(w.srv)
		b.Cleanup(ts.Close)
		urls[i] = ts.URL
	}
	tok := mint(b, "control", []string{"t:*"}, false)
	body := []byte(`{"text":"ping"}`)
	viaNATS := func(i int) error {
		r, err := broker.Call(context.Background(), nc, broker.CallRequest{
			Workspace: fmt.Sprintf("ws-%03d", i%fleet), Tool: "t:echo", Token: tok, Body: body}, 1, 10*time.Second)
		if err == nil && r.Status != 200 {
			err = fmt.Errorf("status %d", r.Status)
		}
		return err
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	viaHTTP := func(i int) error {
		req, _ := http.NewRequest("POST", urls[i%fleet]+"/tools/t:echo", strings.NewReader(string(body)))
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
		}
		if resp.StatusCode != 200 {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return nil
	}
	for _, tc := range []struct {
		name string
		do   func(int) error
	}{{"nats", viaNATS}, {"http", viaHTTP}} {
		b.Run(tc.name+"/sequential", func(b *testing.B) {
			i := 0
			for b.Loop() {
				if err := tc.do(i); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		b.Run(tc.name+"/parallel100", func(b *testing.B) {
			var next atomic.Int64
			b.SetParallelism(max(1, fleet/runtime.GOMAXPROCS(0))) // about 100 callers
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := tc.do(int(next.Add(1))); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
