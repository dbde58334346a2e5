package all_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/commandstest/wsgen"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/parity/compare"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestMain removes the generated workspaces shared by the scale tests and benchmarks, and
// the writers' private ones.
func TestMain(m *testing.M) {
	code := m.Run()
	if scaleRoot != "" {
		_ = os.RemoveAll(scaleRoot)
	}
	for _, dir := range writerDirs {
		_ = os.RemoveAll(dir)
	}
	os.Exit(code)
}

// scaleSeed is the seed of every generated workspace here.
const scaleSeed = 14

var (
	scaleMu   sync.Mutex
	scaleRoot string
	scaleWS   = map[int]*wsgen.Manifest{}
	// scaleChecked records the benchmark cases whose output was checked.
	scaleChecked = map[string]bool{}
)

// generated returns the git workspace of the given scale, made once per test binary:
// writing a 16× workspace takes seconds, and the calls measured on it are read-only, so
// every benchmark and test may share it. The 1× one is a copy of the template.
func generated(tb testing.TB, scale int) *wsgen.Manifest {
	tb.Helper()
	scaleMu.Lock()
	defer scaleMu.Unlock()
	if m := scaleWS[scale]; m != nil {
		return m
	}
	dir := filepath.Join(scaleDir(tb), fmt.Sprintf("x%d", scale))
	var m *wsgen.Manifest
	if scale == 1 {
		m = copyWorkspace(tb, templateLocked(tb), dir)
	} else {
		var err error
		if m, err = wsgen.Generate(dir, wsgen.Options{Scale: scale, Seed: scaleSeed, Git: true}); err != nil {
			tb.Fatalf("generate the %d× workspace: %v", scale, err)
		}
	}
	scaleWS[scale] = m
	return m
}

// scaleDir is the directory of the workspaces shared by the test binary, removed by
// TestMain. scaleMu is held.
func scaleDir(tb testing.TB) string {
	tb.Helper()
	if scaleRoot == "" {
		dir, err := os.MkdirTemp("", "wsgen-")
		if err != nil {
			tb.Fatalf("temp dir: %v", err)
		}
		scaleRoot = dir
	}
	return scaleRoot
}

// template1 is the pristine 1× git workspace, generated once per test binary and never
// called on: every 1× workspace a test or benchmark uses (the readers' shared one, each
// writer's private one) is a copy of it. Generating one writes 1,265 WUs and commits them
// with git (about 4 CPU-s); a copy costs a twentieth of that, and is the same workspace
// (wsgen is deterministic, and the copy rewrites the linked worktrees' absolute paths).
var template1 *wsgen.Manifest

// templateLocked returns template1, generating it first. scaleMu is held.
func templateLocked(tb testing.TB) *wsgen.Manifest {
	tb.Helper()
	if template1 == nil {
		m, err := wsgen.Generate(filepath.Join(scaleDir(tb), "template-x1"), wsgen.Options{Scale: 1, Seed: scaleSeed, Git: true})
		if err != nil {
			tb.Fatalf("generate the 1× workspace: %v", err)
		}
		template1 = m
	}
	return template1
}

// privateWorkspace returns a 1× git workspace of the caller's own in a directory under
// dir, for a test that writes (the one generated(tb, 1) returns is shared by readers).
func privateWorkspace(tb testing.TB, dir string) *wsgen.Manifest {
	tb.Helper()
	scaleMu.Lock()
	tpl := templateLocked(tb)
	scaleMu.Unlock()
	return copyWorkspace(tb, tpl, filepath.Join(dir, "ws"))
}

// copyWorkspace copies the workspace of m to dst (which must not exist) and returns its
// manifest. The manifest's lists are shared with m's: no test changes them.
func copyWorkspace(tb testing.TB, m *wsgen.Manifest, dst string) *wsgen.Manifest {
	tb.Helper()
	dst, err := filepath.Abs(dst)
	if err != nil {
		tb.Fatal(err)
	}
	if err := compare.CopyTree(m.Dir, dst, nil); err != nil {
		tb.Fatalf("copy the 1× workspace: %v", err)
	}
	c := *m
	c.Dir = dst
	return &c
}

// scaleEnv is the call environment on a generated workspace: its clock, and git shut
// off from the host's configuration.
func scaleEnv(m *wsgen.Manifest) map[string]string {
	return map[string]string{
		"DELIVERY_NOW":        delivery.Timestamp(m.Now),
		"DELIVERY_SEED":       "cmdbridge",
		"DELIVERY_OWNER":      "tester@example.com",
		"GIT_CONFIG_GLOBAL":   "/dev/null",
		"GIT_CONFIG_NOSYSTEM": "1",
	}
}

// scaleCall runs one tool on a lane ("adapter" or "native") over a generated workspace.
func scaleCall(tb testing.TB, m *wsgen.Manifest, name, lane, input string) tool.Output {
	return scaleCallIn(tb, m, name, lane, input, nil)
}

// scaleCallIn is scaleCall with the host's store: a native call with a store reads
// through the warm index, as in a long-lived host.
func scaleCallIn(tb testing.TB, m *wsgen.Manifest, name, lane, input string, store *tool.Store) tool.Output {
	tb.Helper()
	return scaleCallEnv(tb, m, scaleEnv(m), name, lane, input, store)
}

// scaleCallEnv is scaleCallIn with the call environment env (scaleEnv's, changed).
func scaleCallEnv(tb testing.TB, m *wsgen.Manifest, env map[string]string, name, lane, input string, store *tool.Store) tool.Output {
	tb.Helper()
	switch lane {
	case "native", "native-warm":
		nt, ok := nativetools.Default.Lookup(name)
		if !ok {
			tb.Fatalf("%s: no native implementation", name)
		}
		lookup := tool.EnvFromMap(env)
		now, ids := delivery.ToolRuntime(lookup)
		env := &tool.Env{Dir: m.Dir, Now: now, IDs: ids, LookupEnv: lookup, Log: discard{}, Store: store}
		return nt.Call(context.Background(), env, json.RawMessage(input))
	default:
		cmd, ok := commands.Lookup(name)
		if !ok {
			tb.Fatalf("%s: no legacy command", name)
		}
		return adapter.Call(context.Background(), cmd, json.RawMessage(input), adapter.LaneAdapter,
			adapter.Config{Dir: m.Dir, Env: env, MaxOutput: 64 << 20})
	}
}

// scaleCase is one command measured on generated workspaces.
type scaleCase struct {
	name  string // sub-benchmark name
	tool  string
	input func(m *wsgen.Manifest) string
	// native also measures the tool's native twin.
	native bool
}

func fixed(s string) func(*wsgen.Manifest) string { return func(*wsgen.Manifest) string { return s } }

// scaleCases are the commands that read every WU or every event, and the single-item
// reads issue 14 found paying for the whole workspace. All are read-only.
var scaleCases = []scaleCase{
	{name: "backlog:status", tool: "backlog:status", native: true, input: fixed(`{}`)},
	{name: "state:doctor", tool: "state:doctor", input: fixed(`{}`)},
	{name: "wu:repair--check", tool: "wu:repair", input: fixed(`{"all":true,"check":true}`)},
	{name: "backlog:prune", tool: "backlog:prune", input: fixed(`{}`)},
	{name: "metrics", tool: "metrics", native: true, input: fixed(`{}`)},
	{name: "lane:health", tool: "lane:health", native: true, input: fixed(`{}`)},
	{name: "validate", tool: "validate", native: true, input: fixed(`{}`)},
	{name: "initiative:list", tool: "initiative:list", native: true, input: fixed(`{}`)},
	{name: "flow:bottlenecks", tool: "flow:bottlenecks", native: true, input: fixed(`{}`)},
	{name: "wu:status", tool: "wu:status", native: true,
		input: func(m *wsgen.Manifest) string { return fmt.Sprintf(`{"id":%q}`, m.InProgress[0]) }},
	{name: "wu:deps", tool: "wu:deps", native: true,
		input: func(m *wsgen.Manifest) string { return fmt.Sprintf(`{"id":%q}`, m.Ready[len(m.Ready)-1]) }},
	{name: "initiative:status", tool: "initiative:status", native: true,
		input: func(m *wsgen.Manifest) string {
			return fmt.Sprintf(`{"id":%q}`, m.InitiativeIDs[len(m.InitiativeIDs)/2])
		}},
}

// BenchmarkScale runs each scale case on generated workspaces at 1× and 16× (issue 14:
// no command may cost more than twice backlog:status at 16×; compare the ns/op of
// BenchmarkScale/16x/<name> with BenchmarkScale/16x/backlog:status). The 16× workspace
// (20k WUs, 48k events) takes tens of seconds to write and seconds per call, so -short
// skips it.
func BenchmarkScale(b *testing.B) {
	for _, scale := range []int{1, 16} {
		b.Run(fmt.Sprintf("%dx", scale), func(b *testing.B) {
			if scale > 1 && testing.Short() {
				b.Skip("-short: the 16× workspace is slow to write and to read")
			}
			m := generated(b, scale)
			for _, tc := range scaleCases {
				lanes := []string{"adapter"}
				if tc.native {
					// native-warm: one store for every call, as a long-lived host keeps
					// (the first, checked call builds the index).
					lanes = append(lanes, "native", "native-warm")
				}
				for _, lane := range lanes {
					name := tc.name
					if tc.native {
						name += "/" + lane
					}
					b.Run(name, func(b *testing.B) {
						in := tc.input(m)
						var store *tool.Store
						if lane == "native-warm" {
							settle(b, m.Dir)
							store = tool.NewStore()
							defer store.Close()
						}
						// The call is checked once per test binary: -count repeats would
						// otherwise pay for a 16× call twice.
						key := fmt.Sprintf("%d/%s/%s", scale, tc.name, lane)
						scaleMu.Lock()
						done := scaleChecked[key]
						scaleChecked[key] = true
						scaleMu.Unlock()
						if !done || store != nil {
							checkScaleOutput(b, tc.tool, scaleCallIn(b, m, tc.tool, lane, in, store))
						}
						b.ReportAllocs()
						b.ResetTimer()
						for i := 0; i < b.N; i++ {
							scaleCallIn(b, m, tc.tool, lane, in, store)
						}
					})
				}
			}
		})
	}
}

// checkScaleOutput fails a case whose call did not do the command's work: success, or a
// check that reports findings (CHECK_FAILED) after doing all of it.
func checkScaleOutput(tb testing.TB, name string, out tool.Output) {
	tb.Helper()
	if out.Success || (out.Error != nil && out.Error.Code == tool.CodeCheckFailed) {
		return
	}
	msg := ""
	if out.Error != nil {
		msg = out.Error.Code + ": " + out.Error.Message
	}
	tb.Fatalf("%s on a generated workspace: %s", name, msg)
}

// BenchmarkShadowCopy measures what a shadow-routed call pays before its native run: the
// kernel's copy of the workspace at 1× and 16×. "sync" is what the kernel does (a
// directory kept from the last shadow run, brought to the workspace's content by a
// compare.Mirror after one WU file changed and the last run left a file behind);
// "copy" is a fresh copy of every file, .git included (compare.CopyTree, what the kernel
// did before), beside parity's fresh lane copy that shares git's immutable object files
// by hard link (compare.CopyTreeSharingObjects; the kernel does not share them: a shadow
// could write through a shared inode into the served repository).
func BenchmarkShadowCopy(b *testing.B) {
	for _, scale := range []int{1, 16} {
		for _, mode := range []string{"sync", "copy", "share-objects"} {
			b.Run(fmt.Sprintf("%dx/%s", scale, mode), func(b *testing.B) {
				if scale > 1 && testing.Short() {
					b.Skip("-short: the 16× workspace is slow to write")
				}
				m := generated(b, scale)
				// The generated repository keeps git's automatic maintenance on: a
				// detached `git gc --auto` may still be packing its objects, and a copy
				// made meanwhile meets files that vanish. Wait while gc.pid says it runs.
				for {
					if _, err := os.Stat(filepath.Join(m.Dir, ".git", "gc.pid")); err != nil {
						break
					}
					time.Sleep(50 * time.Millisecond)
				}
				dst := b.TempDir()
				if mode == "sync" {
					benchShadowSync(b, m.Dir, filepath.Join(m.Dir, filepath.FromSlash(m.WUDir)), filepath.Join(dst, "kept"))
					return
				}
				copyTree := compare.CopyTree
				if mode == "share-objects" {
					copyTree = compare.CopyTreeSharingObjects
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					to := filepath.Join(dst, strconv.Itoa(i))
					if err := copyTree(m.Dir, to, nil); err != nil {
						b.Fatal(err)
					}
					b.StopTimer()
					if err := os.RemoveAll(to); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
			})
		}
	}
}

// BenchmarkShadowCompare measures the other half of a shadow call's cost: comparing the
// served workspace with the kept directory after both runs (here: one WU file changed in
// the workspace and one file left in the directory since the sync), git facts and
// normalisation included. "known" is what the
// kernel does (files the mirror vouches for are not read: Mirror.Unchanged and
// compare.SnapshotKnown); "read-all" reads both trees whole, as it did before.
func BenchmarkShadowCompare(b *testing.B) {
	for _, scale := range []int{1, 16} {
		for _, mode := range []string{"known", "read-all"} {
			b.Run(fmt.Sprintf("%dx/%s", scale, mode), func(b *testing.B) {
				if scale > 1 && testing.Short() {
					b.Skip("-short: the 16× workspace is slow to write")
				}
				m := generated(b, scale)
				const window = 20 * time.Millisecond
				mirror := &compare.Mirror{Src: m.Dir, Dst: filepath.Join(b.TempDir(), "kept"), RacyWindow: window}
				if err := mirror.Sync(); err != nil {
					b.Fatal(err)
				}
				time.Sleep(2 * window)
				if err := mirror.Sync(); err != nil {
					b.Fatal(err)
				}
				edited := wuEditor(b, filepath.Join(m.Dir, filepath.FromSlash(m.WUDir)))(0)
				if err := os.WriteFile(filepath.Join(mirror.Dst, "stray.txt"), []byte("left by the run\n"), 0o644); err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					var same map[string]string
					if mode == "known" {
						same = mirror.Unchanged()
					}
					x, err := compare.SnapshotKnown(m.Dir, nil, same)
					if err != nil {
						b.Fatal(err)
					}
					y, err := compare.SnapshotKnown(mirror.Dst, nil, same)
					if err != nil {
						b.Fatal(err)
					}
					norm := compare.NewNormalizer(m.Dir, mirror.Dst)
					if d := compare.CompareTrees(x.Normalize(norm), y.Normalize(norm)); len(d) != 3 {
						b.Fatalf("want the edited WU, the stray file and git's status, got %d differences: %v", len(d), d)
					}
				}
				b.ReportMetric(float64(len(edited)), "edited-bytes")
			})
		}
	}
}

// wuEditor returns a function that rewrites the WU file in the middle of wuDir with a
// comment line numbered i appended to its first content (restored when b ends), and
// returns the new content.
func wuEditor(b *testing.B, wuDir string) func(i int) []byte {
	wus, err := filepath.Glob(filepath.Join(wuDir, "*.yaml"))
	if err != nil || len(wus) == 0 {
		b.Fatalf("no WU files in %s (%v)", wuDir, err)
	}
	edited := wus[len(wus)/2]
	orig, err := os.ReadFile(edited)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = os.WriteFile(edited, orig, 0o644) })
	return func(i int) []byte {
		next := append(slices.Clip(orig), fmt.Sprintf("# %d\n", i)...)
		if err := os.WriteFile(edited, next, 0o644); err != nil {
			b.Fatal(err)
		}
		return next
	}
}

// benchShadowSync times a compare.Mirror's Sync of a kept directory between calls: before
// each one, a WU file of the workspace changes and the directory gains a stray file. The
// generated workspace was written moments ago, and the mirror reads again every file
// changed within its racy window; the window is shortened here, and the mirror synced
// once after it, to measure the steady state of a served workspace, whose files are
// older than that.
func benchShadowSync(b *testing.B, ws, wuDir, kept string) {
	const window = 20 * time.Millisecond
	m := &compare.Mirror{Src: ws, Dst: kept, RacyWindow: window}
	if err := m.Sync(); err != nil {
		b.Fatal(err)
	}
	time.Sleep(2 * window)
	if err := m.Sync(); err != nil {
		b.Fatal(err)
	}
	edit := wuEditor(b, wuDir)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		edit(i)
		if err := os.WriteFile(filepath.Join(kept, "stray.txt"), []byte("left by the last run\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := m.Sync(); err != nil {
			b.Fatal(err)
		}
	}
}
