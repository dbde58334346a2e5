package journal

import (
	"context"
	"path/filepath"
	"testing"
)

// BenchmarkCall measures the journal of one writing call shaped as wu:create's (a new
// directory and file, an append, the staged paths (the commit step); the journal reset
// after the commit, then closed), against the in-memory journal it replaced and against
// the same file without its fsyncs, in one run. The records' targets are not written:
// only the journal's own cost is measured. "read-only" is a call that writes nothing:
// the lock and the look for a journal to replay.
func BenchmarkCall(b *testing.B) {
	root := repo(b)
	dir := filepath.Join(root, "docs")
	recs := [][]Record{
		{{Op: OpAbsent, Path: dir, Dir: true}, {Op: OpAbsent, Path: filepath.Join(dir, "WU-1.yaml")}},
		{{Op: OpSize, Path: filepath.Join(root, "events.jsonl"), Size: 4096, Mode: 0o644}},
		{{Op: OpStaged, Paths: []string{"docs/WU-1.yaml", "events.jsonl"}}}, // also the commit step
	}
	ctx := context.Background()
	b.Run("in-memory", func(b *testing.B) {
		for b.Loop() {
			var kept []Record
			for _, r := range recs {
				kept = append(kept, r...)
			}
			_ = kept
		}
	})
	for _, mode := range []struct {
		name   string
		noSync bool
	}{{"file-nosync", true}, {"durable", false}} {
		b.Run(mode.name, func(b *testing.B) {
			for b.Loop() {
				h, err := Lock(ctx, root, nil)
				if err != nil {
					b.Fatal(err)
				}
				h.noSync = mode.noSync
				for _, r := range recs {
					if err := h.Append(r...); err != nil {
						b.Fatal(err)
					}
				}
				if err := h.Reset(); err != nil {
					b.Fatal(err)
				}
				if err := h.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("read-only", func(b *testing.B) {
		for b.Loop() {
			h, err := Lock(ctx, root, nil)
			if err != nil {
				b.Fatal(err)
			}
			if err := h.Close(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
