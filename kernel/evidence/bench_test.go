package evidence_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
)

// BenchmarkAppend is the cost of one receipt with the write but without the sync
// (SyncBuffered): what the log itself adds per call, the disk aside.
func BenchmarkAppend(b *testing.B) {
	l, err := evidence.Open(evidence.Config{Dir: b.TempDir(), Sync: evidence.SyncBuffered, CheckpointIdle: -1})
	require.NoError(b, err)
	defer l.Close()
	r := evidence.Receipt{ID: "call-0123abcd-1", RunID: "run-0123abcd-1", Tool: "wu:status", Subject: "local:bench",
		InputHash: "1f2e3d4c5b6a79881f2e3d4c5b6a79881f2e3d4c5b6a79881f2e3d4c5b6a7988", Status: evidence.StatusOK}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		rec := r
		rec.ID = fmt.Sprint("call-", i)
		if err := l.Append(&rec); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendParallel is the same with 8 appenders sharing each write.
func BenchmarkAppendParallel(b *testing.B) {
	l, err := evidence.Open(evidence.Config{Dir: b.TempDir(), Sync: evidence.SyncBuffered, CheckpointIdle: -1})
	require.NoError(b, err)
	defer l.Close()
	b.SetParallelism(8)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := l.Append(&evidence.Receipt{ID: "call", Tool: "wu:status", Status: evidence.StatusOK}); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkErr is the check every call makes before it runs.
func BenchmarkErr(b *testing.B) {
	l, err := evidence.Open(evidence.Config{Dir: b.TempDir(), Sync: evidence.SyncBuffered, CheckpointIdle: -1})
	require.NoError(b, err)
	defer l.Close()
	require.NoError(b, l.Append(&evidence.Receipt{ID: "x"}))
	for b.Loop() {
		if err := l.Err(); err != nil {
			b.Fatal(err)
		}
	}
}
