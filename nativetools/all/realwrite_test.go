package all_test

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cmdbridge/cmdbridge/commands/commandstest/wsgen"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// writeCase is one native writer (or a pair of writers that undo each other) measured on
// a private generated 1× git workspace. Each step is one call; a case's steps leave the
// workspace's files as they found them where the tools allow it (a toggle, or a writer
// and its inverse), so every iteration does the same work. What cannot be undone grows
// by the same amount per iteration: the event log, the git history, a WU's notes, the
// memory store and the signals (append-only by design).
type writeCase struct {
	steps []func(m *wsgen.Manifest) (name, input string)
}

func step(name string, input func(m *wsgen.Manifest) string) func(*wsgen.Manifest) (string, string) {
	return func(m *wsgen.Manifest) (string, string) { return name, input(m) }
}

// The WUs the writers work on, each used by one case only.
func blockable(m *wsgen.Manifest) string { return m.InProgress[len(m.InProgress)-1] }
func claimable(m *wsgen.Manifest) string { return m.Ready[0] }
func editable(m *wsgen.Manifest) string  { return m.Ready[1] }

// linkable is the last ready WU that belongs to no initiative.
func linkable(m *wsgen.Manifest) string {
	for i := len(m.Ready) - 1; i >= 0; i-- {
		if wuOf(m, m.Ready[i]).Initiative == "" {
			return m.Ready[i]
		}
	}
	panic("wsgen: every ready WU belongs to an initiative")
}

func firstInitiative(m *wsgen.Manifest) string { return m.InitiativeIDs[0] }

// writeCases are the native writers agents call most, keyed by the benchmark's name. An
// input's "{i}" is the iteration's number (see writeCall.call). A
// claim is forced (the WIP and dependency checks are the readers' business; the claim,
// its lock, its event and its commit are all done).
var writeCases = map[string]writeCase{
	"wu:block+wu:unblock": {steps: []func(*wsgen.Manifest) (string, string){
		step("wu:block", id(blockable, `{"id":%q,"reason":"waiting for review"}`)),
		step("wu:unblock", id(blockable, `{"id":%q,"reason":"review done"}`)),
	}},
	"wu:claim+wu:release": {steps: []func(*wsgen.Manifest) (string, string){
		step("wu:claim", func(m *wsgen.Manifest) string {
			return fmt.Sprintf(`{"id":%q,"lane":%q,"branch_only":true,"force":true}`, claimable(m), laneOf(m, claimable(m)))
		}),
		step("wu:release", id(claimable, `{"id":%q,"reason":"handing over"}`)),
	}},
	"initiative:add-wu+remove-wu": {steps: []func(*wsgen.Manifest) (string, string){
		step("initiative:add-wu", func(m *wsgen.Manifest) string {
			return fmt.Sprintf(`{"initiative":%q,"wu":[%q]}`, firstInitiative(m), linkable(m))
		}),
		step("initiative:remove-wu", func(m *wsgen.Manifest) string {
			return fmt.Sprintf(`{"initiative":%q,"wu":%q}`, firstInitiative(m), linkable(m))
		}),
	}},
	"wu:edit(x2)": {steps: []func(*wsgen.Manifest) (string, string){
		step("wu:edit", id(editable, `{"id":%q,"description":"Benchmark description A: long enough to be a real description of the work."}`)),
		step("wu:edit", id(editable, `{"id":%q,"description":"Benchmark description B: long enough to be a real description of the work."}`)),
	}},
	"config:set(x2)": {steps: []func(*wsgen.Manifest) (string, string){
		step("config:set", fixed(`{"key":"control_plane.bench","value":"41"}`)),
		step("config:set", fixed(`{"key":"control_plane.bench","value":"42"}`)),
	}},
	// A writer that lists every WU (here as a dry run): the listing is read through the
	// warm index (private copies), where the adapter parses 1,265 files.
	"backlog:prune(dry run)": {steps: []func(*wsgen.Manifest) (string, string){
		step("backlog:prune", fixed(`{}`)),
	}},
	"mem:checkpoint": {steps: []func(*wsgen.Manifest) (string, string){
		step("mem:checkpoint", id(blockable, `{"note":"halfway {i}","wu":%q,"progress":"schema done"}`)),
	}},
	"mem:signal": {steps: []func(*wsgen.Manifest) (string, string){
		step("mem:signal", id(blockable, `{"message":"API frozen","wu":%q}`)),
	}},
}

// laneOf is the lane of a WU of m, from its spec.
func laneOf(m *wsgen.Manifest, id string) string { return wuOf(m, id).Lane }

// wuOf parses a WU spec of m.
func wuOf(m *wsgen.Manifest, id string) *delivery.WU {
	rel := path.Join(m.WUDir, id+".yaml")
	data, err := os.ReadFile(filepath.Join(m.Dir, filepath.FromSlash(rel)))
	if err != nil {
		panic(err)
	}
	w, err := delivery.ParseWU(rel, data)
	if err != nil {
		panic(err)
	}
	return w
}

// TestRealDataWritersAgree runs every write case on two private copies of the 1×
// workspace, one per lane, and requires the same outputs call by call.
func TestRealDataWritersAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: writes two 1,265-WU workspaces")
	}
	native := privateWorkspace(t, t.TempDir())
	adapter := privateWorkspace(t, t.TempDir())
	store := tool.NewStore()
	defer store.Close()
	// The inputs are derived before any call: a write changes what they pick.
	nativeCalls, adapterCalls := writeCalls(native), writeCalls(adapter)
	for _, name := range sortedKeys(writeCases) {
		t.Run(name, func(t *testing.T) {
			for i, c := range nativeCalls[name] {
				tn, in, ain := c.tool, c.input, adapterCalls[name][i].input
				want := writeCall{tn, ain}.call(t, adapter, "adapter", nil, 0)
				checkCode(t, tn, "adapter", "", want)
				got := writeCall{tn, in}.call(t, native, "native-warm", store, 0)
				assert.Equal(t, canonical(t, want), canonical(t, got), "%s: native differs from adapter", tn)
			}
		})
	}
	// The commits agree (their SHAs are in the outputs); so must what is not committed.
	assert.Equal(t, files(t, adapter.Dir), files(t, native.Dir), "the lanes left different files")
}

// files maps every file under dir, .git entries (and a worktree's .git file, which names
// its absolute git directory) left out, to its content.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// BenchmarkRealDataWriters measures every write case on private 1× git workspaces (one
// per lane, copied once per test binary): native-warm (a long-lived host's store: the
// index is built by a read first; a writer reads the disk, writes, commits and refreshes
// the index, or reads through it when it only appends to the memory store) against adapter
// (the legacy main in-process). One op is one iteration of the case: every call of it,
// each checked to succeed. scripts/bench-ratio.sh prints adapter/native per case.
func BenchmarkRealDataWriters(b *testing.B) {
	for _, name := range sortedKeys(writeCases) {
		b.Run(name, func(b *testing.B) {
			store := tool.NewStore()
			defer store.Close()
			for _, lane := range []string{"native-warm", "adapter"} {
				b.Run(lane, func(b *testing.B) {
					m, calls := writerWorkspace(b, lane)
					var st *tool.Store
					if lane == "native-warm" {
						// A host has read before it writes: the index holds every WU, the
						// initiatives and the event log, and each writer refreshes it.
						st = store
						checkCode(b, "backlog:status", lane, "", scaleCallIn(b, m, "backlog:status", lane, `{}`, st))
					}
					run := func() {
						i := writerIteration[lane]
						writerIteration[lane]++
						for _, c := range calls[name] {
							checkCode(b, c.tool, lane, "", c.call(b, m, lane, st, i))
						}
					}
					run() // and builds the index
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						run()
					}
				})
			}
		})
	}
}

var (
	writerMu sync.Mutex
	writerWS = map[string]*wsgen.Manifest{}
	writerIn = map[string]map[string][]writeCall{}
	// writerDirs are removed by TestMain.
	writerDirs []string
	// writerIteration numbers the iterations on each lane's workspace, never twice.
	writerIteration = map[string]int{}
)

// writerWorkspace is the private workspace of a lane's writers, copied once per test
// binary, and the calls of every case on it (derived before the first call). Each lane has
// its own, so one lane's writes never grow what the other reads.
func writerWorkspace(b *testing.B, lane string) (*wsgen.Manifest, map[string][]writeCall) {
	b.Helper()
	writerMu.Lock()
	defer writerMu.Unlock()
	if m := writerWS[lane]; m != nil {
		return m, writerIn[lane]
	}
	dir, err := os.MkdirTemp("", "wsgen-writers-")
	if err != nil {
		b.Fatal(err)
	}
	m := privateWorkspace(b, dir)
	settle(b, m.Dir)
	writerWS[lane], writerIn[lane] = m, writeCalls(m)
	writerDirs = append(writerDirs, dir)
	return m, writerIn[lane]
}

// writeCall is one call of a write case.
type writeCall struct{ tool, input string }

// call makes the call as iteration i on m: "{i}" in the input and the id seed are the
// iteration's, so that every iteration does the same work. With one seed and one clock,
// each call would draw the ids the calls before it drew (signals) or hash the same
// content at the same time (memory nodes), and redraw once more per earlier iteration
// on the collision.
func (c writeCall) call(tb testing.TB, m *wsgen.Manifest, lane string, store *tool.Store, i int) tool.Output {
	tb.Helper()
	env := scaleEnv(m)
	env["DELIVERY_SEED"] = fmt.Sprintf("cmdbridge-%d", i)
	return scaleCallEnv(tb, m, env, c.tool, lane, strings.ReplaceAll(c.input, "{i}", strconv.Itoa(i)), store)
}

// writeCalls are the calls of every write case on m, derived from m as generated.
func writeCalls(m *wsgen.Manifest) map[string][]writeCall {
	out := map[string][]writeCall{}
	for name, wc := range writeCases {
		for _, s := range wc.steps {
			tn, in := s(m)
			out[name] = append(out[name], writeCall{tn, in})
		}
	}
	return out
}
