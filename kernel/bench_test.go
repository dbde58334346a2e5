package kernel_test

import (
	"context"
	"testing"

	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
)

// BenchmarkCallOverhead measures the whole pipeline around a trivial native tool with
// evidence on buffered writes (goal ≤ 50µs/op).
func BenchmarkCallOverhead(b *testing.B) {
	k, _ := newKernel(b, &probe{})
	r := req("test:echo", `{"text":"hello","count":3,"tags":["a","b"]}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := k.Call(ctx, r); !res.Output.Success {
			b.Fatal(res.Output.Error)
		}
	}
}

// BenchmarkDurableCallsParallel8 measures governed calls per second from 8 concurrent
// callers with fdatasync'd evidence and group commit (goal ≥ 10,000 calls/s).
func BenchmarkDurableCallsParallel8(b *testing.B) {
	k, _ := newKernel(b, &probe{}, func(c *assemble.Config) { c.Evidence.Sync = evidence.SyncGroup })
	r := req("test:echo", `{"text":"hello"}`)
	ctx := context.Background()
	b.SetParallelism(8 / max(1, runtimeGOMAXPROCS()))
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if res := k.Call(ctx, r); !res.Output.Success {
				b.Error(res.Output.Error)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}
