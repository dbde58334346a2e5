package wsindex

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
)

// withMemory adds a memory store and a signal store to a workspace: two nodes, one
// relationship, two signals and a receipt, written by the functions the legacy commands
// write them with.
func withMemory(t *testing.T, root string) {
	t.Helper()
	require.NoError(t, delivery.AppendMemory(root, node("mem-0001", "first"), node("mem-0002", "second")))
	require.NoError(t, delivery.AppendRelationships(root, delivery.Relationship{FromID: "mem-0001", ToID: "mem-0002",
		Type: delivery.RelBlocks, CreatedAt: "2026-03-01T10:00:00.000Z"}))
	sendSignal(t, root, "one")
	sendSignal(t, root, "two")
	require.NoError(t, delivery.MarkSignalsRead(root, []string{"sig-00000001"}, "2026-03-01T10:05:00.000Z"))
}

func node(id, content string) *delivery.MemNode {
	return &delivery.MemNode{ID: id, Type: delivery.MemTypeDiscovery, Lifecycle: delivery.LifecycleWU,
		Content: content, CreatedAt: "2026-03-01T10:00:00.000Z", WUID: "WU-1"}
}

var signalSeq struct {
	sync.Mutex
	n int
}

// sendSignal appends a signal line as SendSignal writes it, with an id of its own.
func sendSignal(t *testing.T, root, msg string) {
	t.Helper()
	signalSeq.Lock()
	signalSeq.n++
	id := fmt.Sprintf("sig-%08x", signalSeq.n)
	signalSeq.Unlock()
	require.NoError(t, storage.AppendJSONL(delivery.SignalsPath(root), delivery.Signal{ID: id, Message: msg,
		CreatedAt: "2026-03-01T10:00:00.000Z", Type: delivery.DefaultSignalType, Sender: delivery.DefaultSignalSender,
		Origin: delivery.SignalOriginLocal, RemoteID: id}))
}

// sameMemory asserts the index answers Memory and Signals exactly as the disk does.
func sameMemory(t *testing.T, x *Index) {
	t.Helper()
	cached, disk := both(t, x)
	dm, derr := disk.Memory()
	cm, cerr := cached.Memory()
	assert.Equal(t, derr, cerr)
	assert.Equal(t, dm, cm)
	ds, derr := disk.Signals()
	cs, cerr := cached.Signals()
	assert.Equal(t, derr, cerr)
	assert.Equal(t, ds, cs)
}

func memoryOf(t *testing.T, x *Index) *delivery.Memory {
	t.Helper()
	ws, err := x.Workspace(x.root)
	require.NoError(t, err)
	m, err := ws.Memory()
	require.NoError(t, err)
	return m
}

// appendByShell appends a line to a file from another process.
func appendByShell(t *testing.T, path, line string) {
	t.Helper()
	out, err := exec.Command("sh", "-c", `printf '%s\n' "$1" >> "$2"`, "sh", line, path).CombinedOutput()
	require.NoError(t, err, "%s", out)
}

// memoryEdits are changes to the memory and signal stores made between two calls: by the
// legacy writers' functions, by hand, by another process; the nodes they leave are named.
func memoryEdits(t *testing.T, root string) []struct {
	name string
	edit func()
} {
	mem := delivery.MemoryPath(root)
	return []struct {
		name string
		edit func()
	}{
		{"legacy append", func() { require.NoError(t, delivery.AppendMemory(root, node("mem-0003", "third"))) }},
		{"new version by another process", func() {
			appendByShell(t, mem, `{"id":"mem-0001","type":"discovery","lifecycle":"wu","content":"first, edited","created_at":"2026-03-01T10:00:00.000Z","wu_id":"WU-1"}`)
		}},
		{"same-size edit in place", func() {
			data, err := os.ReadFile(mem)
			require.NoError(t, err)
			edited := strings.Replace(string(data), `"content":"second"`, `"content":"SECOND"`, 1)
			require.Len(t, edited, len(data))
			require.NoError(t, os.WriteFile(mem, []byte(edited), 0o644))
		}},
		{"a line that does not parse", func() { appendByShell(t, mem, `{"id":`) }},
		{"relationships removed", func() { require.NoError(t, os.Remove(filepath.Join(root, filepath.FromSlash(delivery.RelationsFile)))) }},
		{"signal sent", func() { sendSignal(t, root, "three") }},
		{"receipt by another process", func() {
			appendByShell(t, delivery.ReceiptsPath(root), `{"signal_id":"sig-00000002","read_at":"2026-03-01T10:06:00.000Z"}`)
		}},
		{"signals rewritten", func() { require.NoError(t, delivery.RewriteSignalStore(root, nil)) }},
		{"memory store removed", func() { require.NoError(t, os.Remove(mem)) }},
		{"memory store back", func() { require.NoError(t, delivery.AppendMemory(root, node("mem-0004", "fourth"))) }},
	}
}

// Without a watcher (validation by signature, every entry trusted at once): every change
// to the stores between two calls is in the next call's answer.
func TestMemoryHandEditsBetweenCalls(t *testing.T) {
	root := newWorkspace(t, 2)
	withMemory(t, root)
	x := New(root, Options{NoWatch: true, Now: trusting})
	defer x.Close()
	sameMemory(t, x)
	for _, e := range memoryEdits(t, root) {
		e.edit()
		sameMemory(t, x)
		if t.Failed() {
			t.Fatalf("after %s", e.name)
		}
	}
	assert.Equal(t, "fourth", memoryOf(t, x).Get("mem-0004").Content)
}

// Past the barrier (the watcher runs): the same changes are seen by the very next call,
// with no stat of the store's files.
func TestPastTheBarrierMemoryEditsSeenAtOnce(t *testing.T) {
	root := newWorkspace(t, 2)
	withMemory(t, root)
	x := New(root, Options{})
	defer x.Close()
	require.NotEmpty(t, x.barrierDir, "the barrier starts with the watcher")
	for i := 0; i < 5; i++ {
		before := x.Stats().Reads
		sameMemory(t, x)
		if x.Stats().Reads == before {
			break
		}
	}
	for _, e := range memoryEdits(t, root) {
		before := x.Stats().Barriers
		e.edit()
		sameMemory(t, x)
		if t.Failed() {
			t.Fatalf("after %s", e.name)
		}
		assert.Greater(t, x.Stats().Barriers, before, e.name)
	}
}

// A warm call neither reads nor parses the stores again, and hands out the store it built
// (shared, read-only); a change builds a new one.
func TestWarmMemoryIsNotParsedAgain(t *testing.T) {
	root := newWorkspace(t, 2)
	withMemory(t, root)
	x := New(root, Options{NoWatch: true, Now: trusting})
	defer x.Close()
	first := memoryOf(t, x)
	before := x.Stats()
	assert.Same(t, first, memoryOf(t, x))
	after := x.Stats()
	assert.Equal(t, before.Reads, after.Reads)
	assert.Equal(t, before.Parses, after.Parses)
	require.NoError(t, delivery.AppendMemory(root, node("mem-0003", "third")))
	third := memoryOf(t, x)
	assert.NotSame(t, first, third)
	assert.NotNil(t, third.Get("mem-0003"))
	assert.Nil(t, first.Get("mem-0003"), "a store handed out never changes")
}

// Readers of the stores and writers appending to them at once (run under -race): every
// reader gets a store as the disk had it at some point, whole lines only.
func TestConcurrentMemoryReadersAndWriters(t *testing.T) {
	root := newWorkspace(t, 2)
	withMemory(t, root)
	x := New(root, Options{})
	defer x.Close()
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				assert.NoError(t, delivery.AppendMemory(root, node(fmt.Sprintf("mem-%x%03x", w+1, i), "more")))
			}
		}()
	}
	for r := 0; r < 3; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				ws, err := x.Workspace(x.root)
				if !assert.NoError(t, err) {
					return
				}
				m, err := ws.Memory()
				if assert.NoError(t, err) {
					assert.Empty(t, m.Invalid, "a reader saw part of a line")
					assert.GreaterOrEqual(t, len(m.Nodes), 2)
				}
				_, err = ws.Signals()
				assert.NoError(t, err)
			}
		}()
	}
	wg.Wait()
	sameMemory(t, x)
	assert.Len(t, memoryOf(t, x).Nodes, 42)
}

// The event log grows by appends too (every writer appends its event): each append,
// valid or not, by the writers' function or another process, is in the next answer,
// numbered as in the whole file; an edit that is not an append is read whole.
func TestEventLogAppendsBetweenCalls(t *testing.T) {
	for _, watch := range []bool{false, true} {
		t.Run(fmt.Sprintf("watch=%v", watch), func(t *testing.T) {
			root := newWorkspace(t, 2)
			x := New(root, Options{NoWatch: !watch, Now: trusting})
			defer x.Close()
			same(t, x)
			events := delivery.EventsPath(root)
			for _, edit := range []func(){
				func() {
					require.NoError(t, delivery.AppendEvents(root, delivery.Event{Type: delivery.EventClaim, WUID: "WU-1",
						Timestamp: "2026-03-01T11:00:00.000Z", Lane: "Core: API", Title: "t WU-1"}))
				},
				func() { appendByShell(t, events, "") }, // a blank line: counted, not kept
				func() { appendByShell(t, events, `{"type":"block"`) },
				func() {
					appendByShell(t, events, `{"type":"block","wuId":"WU-1","timestamp":"2026-03-01T12:00:00.000Z","reason":"r"}`)
				},
				func() { write(t, root, delivery.EventsFile, "") }, // emptied: not an append
				func() {
					require.NoError(t, delivery.AppendEvents(root, delivery.Event{Type: delivery.EventCreate, WUID: "WU-2",
						Timestamp: "2026-03-01T13:00:00.000Z", Lane: "Core: API", Title: "t WU-2"}))
				},
			} {
				edit()
				same(t, x)
			}
			ws, err := x.Workspace(x.root)
			require.NoError(t, err)
			log, err := ws.Events()
			require.NoError(t, err)
			require.Len(t, log.Lines, 1)
			assert.Equal(t, "WU-2", log.Lines[0].Event.WUID)
		})
	}
}
