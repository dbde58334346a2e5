package all_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/delivery/wsindex"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/tool"
)

// BenchmarkWarmIndex measures the read tools that use the warm workspace index on the acme
// fixture (64 WUs) three ways: native-warm (a host's store, as in serve, mcp or a batch:
// every call validates the index and answers from memory), native-cold (no store: each
// call reads and parses from the disk, as `cmdbridge call` does) and adapter (the legacy
// main in-process).
func BenchmarkWarmIndex(b *testing.B) {
	fixture, err := filepath.Abs(filepath.Join("..", "..", "testdata", "workspaces", "acme"))
	if err != nil {
		b.Fatal(err)
	}
	ws := newWorkspace(b, fixture)
	settle(b, ws.dir)
	for _, tc := range []migratedCase{
		{tool: "wu:status", input: `{"id":"WU-15"}`},
		{tool: "initiative:status", input: `{"id":"INIT-1"}`},
		{tool: "backlog:status", input: `{}`},
		{tool: "lane:health", input: `{}`},
		{tool: "lane:suggest", input: `{}`},
		{tool: "state:doctor", input: `{}`, fails: tool.CodeCheckFailed}, // the fixture has findings by design
		{tool: "wu:deps", input: `{"id":"WU-42"}`},
		{tool: "wu:preflight", input: `{"id":"WU-42"}`},
		{tool: "initiative:list", input: `{}`},
		{tool: "orchestrate:initiative", input: `{"initiative":"INIT-1","dry_run":true}`},
		{tool: "flow:bottlenecks", input: `{}`},
		{tool: "metrics", input: `{}`},
		{tool: "flow:report", input: `{}`},
		{tool: "mem:triage", input: `{}`},
		{tool: "validate", input: `{}`, fails: tool.CodeCheckFailed}, // the fixture has findings by design
		{tool: "agent:issues-query", input: `{"since":30}`},
	} {
		b.Run(tc.tool, func(b *testing.B) {
			nt, ok := nativetools.Default.Lookup(tc.tool)
			if !ok {
				b.Fatalf("%s: no native implementation", tc.tool)
			}
			cmd, ok := commands.Lookup(tc.tool)
			if !ok {
				b.Fatalf("%s: no legacy command", tc.tool)
			}
			store := tool.NewStore()
			defer store.Close()
			lanes := []struct {
				name string
				call func() tool.Output
			}{
				{"native-warm", func() tool.Output {
					return nt.Call(context.Background(), warmEnv(ws.dir, store), json.RawMessage(tc.input))
				}},
				{"native-cold", func() tool.Output {
					return nt.Call(context.Background(), kernelEnv(ws.dir), json.RawMessage(tc.input))
				}},
				{"adapter", func() tool.Output {
					return adapter.Call(context.Background(), cmd, json.RawMessage(tc.input), adapter.LaneAdapter,
						adapter.Config{Dir: ws.dir, Env: benchEnv})
				}},
			}
			for _, lane := range lanes {
				b.Run(lane.name, func(b *testing.B) {
					check(b, tc, lane.name, lane.call()) // and, on the warm lane, warms the index
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						lane.call()
					}
				})
			}
		})
	}
}

// settle waits until every file of dir is older than the index's racy window, so the
// warm lane measures the steady state of a long-lived host (files edited within the
// window are re-read on every call, by design). The copy was just made, so this is at
// most one window.
func settle(b *testing.B, dir string) {
	b.Helper()
	var newest time.Time
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		t := info.ModTime()
		if st, ok := info.Sys().(*syscall.Stat_t); ok {
			if c := time.Unix(st.Ctim.Sec, st.Ctim.Nsec); c.After(t) {
				t = c
			}
		}
		if t.After(newest) {
			newest = t
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	time.Sleep(time.Until(newest.Add(wsindex.DefaultRacyWindow + 10*time.Millisecond)))
}
