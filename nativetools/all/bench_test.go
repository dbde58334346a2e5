package all_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/all"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	_ "github.com/cmdbridge/cmdbridge/nativetools/all"
	"github.com/cmdbridge/cmdbridge/parity"
	"github.com/cmdbridge/cmdbridge/tool"
)

// migratedCase is one migrated tool measured by BenchmarkMigrated: the same input on the
// native and on the adapter lane, over a private copy of the acme fixture.
type migratedCase struct {
	tool  string
	input string
	// writes marks a tool that changes the workspace: the copy is restored to the
	// fixture after every call, outside the timer, so each iteration starts from the
	// same files.
	writes bool
	// fails is the error code the call is expected to end with ("" for success): a case
	// measures a whole call, and a call that fails earlier than intended would measure
	// less than it claims.
	fails string
}

// migratedCases are the tools migrated since issue 6, each with an input that does the
// tool's real work on the acme fixture. The copy is not a git work tree, so writers do
// everything but the commit: corpus §2.4 skips committing outside a work tree, which each
// writer finds out by running `git rev-parse` once (on both lanes alike).
var migratedCases = []migratedCase{
	// Readers.
	{tool: "wu:status", input: `{"id":"WU-15"}`},                      // an in-progress WU: spec, events, lock, location
	{tool: "initiative:status", input: `{"id":"INIT-1"}`},             // an initiative and the WUs that belong to it
	{tool: "mem:inbox", input: `{"all":true}`},                        // every signal, read ones included (no receipts written)
	{tool: "config:get", input: `{"key":"software_delivery.lanes"}`},  // a list of mappings, keeping order and types
	{tool: "file:read", input: `{"path":"docs/tasks/wu/WU-15.yaml"}`}, // a whole WU spec
	{tool: "mem:triage", input: `{}`},                                 // open discoveries: the session file and the memory store (empty in the fixture)
	{tool: "agent:issues-query", input: `{"since":30}`},               // every incident file (the fixture has none)
	{tool: "wu:preflight", input: `{"id":"WU-42"}`},                   // every code and test path of a WU, found
	{tool: "lane:suggest", input: `{}`},                               // every file against the lanes (a walk: the copy is no work tree)
	{tool: "state:doctor", input: `{}`, fails: tool.CodeCheckFailed},  // WUs, stamps, events, signals, locks (the fixture has findings by design)

	// A writer measured in its read-only form: an initiative's wave plan, no signal sent.
	{tool: "orchestrate:initiative", input: `{"initiative":"INIT-1","dry_run":true}`},
	// Writers, restored after each call.
	{tool: "wu:create", writes: true, input: `{"lane":"Content: Docs","title":"Document the benchmark",` +
		`"description":"Explain how the migrated tools are benchmarked on both lanes and what each case measures.",` +
		`"acceptance":["The guide lists every case"],"code_paths":["docs/**"],"exposure":"documentation","type":"documentation"}`},
	{tool: "wu:claim", writes: true, input: `{"id":"WU-12","lane":"Content: Docs","branch_only":true}`},
	{tool: "wu:block", writes: true, input: `{"id":"WU-15","reason":"waiting for review"}`},
	{tool: "wu:unblock", writes: true, input: `{"id":"WU-52","reason":"review done"}`},
	{tool: "mem:checkpoint", writes: true, input: `{"note":"halfway","wu":"WU-15","progress":"schema done"}`},
	{tool: "mem:signal", writes: true, input: `{"message":"API frozen","wu":"WU-15","lane":"Core: API"}`},
	{tool: "config:set", writes: true, input: `{"key":"control_plane.bench","value":"42"}`},
}

// benchEnv is the call environment of both lanes: the corpus scripts' pinned clock, seed
// and owner, and git isolated from the host's configuration.
var benchEnv = map[string]string{
	"DELIVERY_NOW":        "2026-03-01T10:00:00.000Z",
	"DELIVERY_SEED":       "cmdbridge",
	"DELIVERY_OWNER":      "tester@example.com",
	"GIT_CONFIG_GLOBAL":   "/dev/null",
	"GIT_CONFIG_NOSYSTEM": "1",
}

// BenchmarkMigrated runs each migrated tool on the native lane (the registered
// native.Tool with a tool.Env built as the kernel builds it, runtime
// delivery.ToolRuntime) and on the adapter lane (adapter.Call, lane "adapter"), on the
// same input over the same copy of the acme fixture. Compare
// BenchmarkMigrated/<tool>/native with /adapter; the goal is native ≥ 5× faster.
// A tool with no native implementation registered fails its case, never skips it.
func BenchmarkMigrated(b *testing.B) {
	fixture, err := filepath.Abs(filepath.Join("..", "..", "testdata", "workspaces", "acme"))
	if err != nil {
		b.Fatal(err)
	}
	// The floor every workspace tool pays on both lanes: opening the workspace, which
	// today resolves the main checkout by running `git rev-parse` (gitrepo.MainCheckout).
	b.Run("floor/open-workspace", func(b *testing.B) {
		ws := newWorkspace(b, fixture)
		lookup := gitrepo.LookupEnv(tool.EnvFromMap(benchEnv))
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := ops.OpenWorkspace(context.Background(), ws.dir, lookup); err != nil {
				b.Fatalf("open the acme copy: %v", err)
			}
		}
	})
	for _, tc := range migratedCases {
		b.Run(tc.tool, func(b *testing.B) {
			cmd, ok := commands.Lookup(tc.tool)
			if !ok {
				b.Fatalf("%s: no legacy command registered", tc.tool)
			}
			nt, ok := nativetools.Default.Lookup(tc.tool)
			if !ok {
				b.Fatalf("%s: no native implementation registered in nativetools.Default (not migrated yet?)", tc.tool)
			}
			lanes := []struct {
				name string
				call func(dir string) tool.Output
			}{
				{"native", func(dir string) tool.Output {
					return nt.Call(context.Background(), kernelEnv(dir), json.RawMessage(tc.input))
				}},
				{"adapter", func(dir string) tool.Output {
					return adapter.Call(context.Background(), cmd, json.RawMessage(tc.input), adapter.LaneAdapter,
						adapter.Config{Dir: dir, Env: benchEnv})
				}},
			}
			for _, lane := range lanes {
				b.Run(lane.name, func(b *testing.B) {
					ws := newWorkspace(b, fixture)
					check(b, tc, lane.name, lane.call(ws.dir)) // the input does what the case says
					ws.restore(b)
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						lane.call(ws.dir)
						if tc.writes {
							b.StopTimer()
							ws.restore(b)
							b.StartTimer()
						}
					}
				})
			}
		})
	}
}

// TestMigratedCasesRestore proves what the benchmark relies on: every case's input does
// what the case says on the native lane, and after a writer's call restore brings back
// exactly the fixture's files (none changed, none added), so every iteration measures
// the same call.
func TestMigratedCasesRestore(t *testing.T) {
	fixture, err := filepath.Abs(filepath.Join("..", "..", "testdata", "workspaces", "acme"))
	require.NoError(t, err)
	for _, tc := range migratedCases {
		t.Run(tc.tool, func(t *testing.T) {
			nt, ok := nativetools.Default.Lookup(tc.tool)
			require.True(t, ok, "%s: no native implementation registered", tc.tool)
			ws := newWorkspace(t, fixture)
			for round := 0; round < 2; round++ {
				check(t, tc, "native", nt.Call(context.Background(), kernelEnv(ws.dir), json.RawMessage(tc.input)))
				changed := ws.differences(t)
				if tc.writes {
					assert.NotEmpty(t, changed, "a writer case changes the workspace")
				} else {
					assert.Empty(t, changed, "a reader case changes nothing")
				}
				ws.restore(t)
				assert.Empty(t, ws.differences(t), "restore brings back the fixture")
			}
		})
	}
}

// differences lists the files that differ from the fixture: changed, added or missing.
func (ws *workspace) differences(t testing.TB) []string {
	t.Helper()
	var out []string
	seen := map[string]bool{}
	err := filepath.WalkDir(ws.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(ws.dir, p)
		rel = filepath.ToSlash(rel)
		seen[rel] = true
		f, ok := ws.files[rel]
		if !ok {
			out = append(out, "+ "+rel)
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !bytes.Equal(data, f.data) {
			out = append(out, "M "+rel)
		}
		return nil
	})
	require.NoError(t, err)
	for rel := range ws.files {
		if !seen[rel] {
			out = append(out, "- "+rel)
		}
	}
	return out
}

// kernelEnv is the tool.Env the kernel hands a native call (kernel.Kernel.env): the
// workspace directory, the clock and ids of delivery.ToolRuntime, empty stdin, a
// discarded log, non-interactive. Built per call, as the kernel does.
func kernelEnv(dir string) *tool.Env {
	lookup := tool.EnvFromMap(benchEnv)
	now, ids := delivery.ToolRuntime(lookup)
	return &tool.Env{Dir: dir, Now: now, IDs: ids, LookupEnv: lookup,
		Stdin: bytes.NewReader(nil), Log: discard{}}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func check(b testing.TB, tc migratedCase, lane string, out tool.Output) {
	b.Helper()
	code := ""
	if out.Error != nil {
		code = out.Error.Code
	}
	if out.Success != (tc.fails == "") || code != tc.fails {
		msg := ""
		if out.Error != nil {
			msg = out.Error.Message
		}
		b.Fatalf("%s on the %s lane: success=%v code=%q (%s), want code %q", tc.tool, lane, out.Success, code, msg, tc.fails)
	}
}

// workspace is a private copy of the fixture that can be put back as it was cheaply:
// restore rewrites only the files whose size or modification time changed, and removes
// what was added.
type workspace struct {
	dir   string
	files map[string]*pristine // by slash path relative to dir
}

type pristine struct {
	data []byte
	mode fs.FileMode
	info fs.FileInfo // the stat after the last write
}

func newWorkspace(b testing.TB, fixture string) *workspace {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "acme")
	if err := parity.CopyTree(fixture, dir, nil); err != nil {
		b.Fatalf("copy the acme fixture: %v", err)
	}
	ws := &workspace{dir: dir, files: map[string]*pristine{}}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		ws.files[filepath.ToSlash(rel)] = &pristine{data: data, mode: info.Mode().Perm(), info: info}
		return nil
	})
	if err != nil {
		b.Fatalf("snapshot the workspace: %v", err)
	}
	return ws
}

// restore puts the copy back to the fixture's files.
func (ws *workspace) restore(b testing.TB) {
	b.Helper()
	seen := make(map[string]bool, len(ws.files))
	var extra []string
	err := filepath.WalkDir(ws.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == ws.dir {
			return err
		}
		rel, _ := filepath.Rel(ws.dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			return nil
		}
		f, ok := ws.files[rel]
		if !ok {
			extra = append(extra, p)
			return nil
		}
		seen[rel] = true
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		if info.Size() != f.info.Size() || !info.ModTime().Equal(f.info.ModTime()) || info.Mode() != f.info.Mode() {
			return ws.rewrite(rel, f)
		}
		return nil
	})
	if err != nil {
		b.Fatalf("restore the workspace: %v", err)
	}
	for _, p := range extra {
		if err := os.RemoveAll(p); err != nil {
			b.Fatalf("restore the workspace: %v", err)
		}
	}
	for rel, f := range ws.files {
		if !seen[rel] {
			if err := ws.rewrite(rel, f); err != nil {
				b.Fatalf("restore the workspace: %v", err)
			}
		}
	}
	// Directories a call created are left empty: no tool reads an empty directory
	// differently from a missing one in these cases, and removing them would cost a
	// second walk.
}

func (ws *workspace) rewrite(rel string, f *pristine) error {
	p := filepath.Join(ws.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	_ = os.Remove(p) // a symlink or a file of another mode is replaced, not followed
	if err := os.WriteFile(p, f.data, f.mode); err != nil {
		return err
	}
	info, err := os.Lstat(p)
	if err != nil {
		return err
	}
	f.info = info
	return nil
}
