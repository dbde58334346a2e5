package broker_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/surface/broker"
	"github.com/cmdbridge/cmdbridge/surface/events"
)

// headLog is an evidence log whose heads go straight to a store, as if the
// workspace's sidecar and the control plane's KeepHeads sat between them.
type headLog struct {
	dir   string
	store *broker.HeadStore
	ws    string
	heads []broker.Head
}

func (h *headLog) open(t *testing.T) *evidence.Log {
	t.Helper()
	l, err := evidence.Open(evidence.Config{Dir: h.dir, CheckpointEvery: 2, CheckpointIdle: -1,
		OnCheckpoint: func(cp evidence.Checkpoint) {
			kept, err := h.store.Add(h.ws, cp, time.Now())
			require.NoError(t, err)
			h.heads = append(h.heads, kept)
		}})
	require.NoError(t, err)
	return l
}

func (h *headLog) write(t *testing.T, n int) {
	t.Helper()
	l := h.open(t)
	for i := range n {
		require.NoError(t, l.Append(&evidence.Receipt{ID: fmt.Sprint("c-", i)}))
	}
	require.NoError(t, l.Close())
}

func newHeadLog(t *testing.T) *headLog {
	store, err := broker.OpenHeadStore(t.TempDir())
	require.NoError(t, err)
	return &headLog{dir: t.TempDir(), store: store, ws: "ws-a"}
}

// exportHeads writes the store's heads of ws as `cmdbridge conductor checkpoints`
// prints them.
func exportHeads(t *testing.T, store *broker.HeadStore, ws string) string {
	t.Helper()
	heads, err := store.Heads(ws)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "heads.jsonl")
	var out []byte
	for _, h := range heads {
		line, err := json.Marshal(h)
		require.NoError(t, err)
		out = append(append(out, line...), '\n')
	}
	require.NoError(t, os.WriteFile(path, out, 0o600))
	return path
}

// A log that only grows publishes heads that fit: each linked to the one before by a
// consistency proof the store checks; reopening republishes the last head, kept once.
func TestHeadStoreKeepsAGrowingLog(t *testing.T) {
	h := newHeadLog(t)
	h.write(t, 5) // heads 2, 4, and 5 at close
	h.write(t, 2) // head 5 again at open (a duplicate), 6, and 7 at close
	heads, err := h.store.Heads(h.ws)
	require.NoError(t, err)
	var ns []int64
	for _, k := range heads {
		assert.Empty(t, k.Conflict, "%+v", k)
		assert.False(t, k.Unlinked, "%+v", k)
		ns = append(ns, k.N)
	}
	assert.Equal(t, []int64{2, 4, 5, 6, 7}, ns)
	rep, err := evidence.VerifyWith(h.dir, evidence.VerifyOptions{Published: []string{exportHeads(t, h.store, h.ws)}})
	require.NoError(t, err)
	assert.True(t, rep.OK(), "%+v", rep.Problems)
}

// TestRedTeamHeadStoreSeesARewind: the control plane's store flags the head of a log
// that was rewound (records and checkpoints together) or started over under a fresh
// key, and `evidence verify --published` fails the rewound log against the heads kept.
func TestRedTeamHeadStoreSeesARewind(t *testing.T) {
	cut := func(t *testing.T, dir string, n int) {
		data, err := os.ReadFile(filepath.Join(dir, evidence.ReceiptsFile))
		require.NoError(t, err)
		var size int
		for i, k := 0, 0; i < len(data) && k < n; i++ {
			if data[i] == '\n' {
				k, size = k+1, i+1
			}
		}
		require.NoError(t, os.Truncate(filepath.Join(dir, evidence.ReceiptsFile), int64(size)))
	}
	cases := []struct {
		name   string
		rewind func(t *testing.T, dir string)
		calls  int
		// conflict is what the last head's conflict must say: which check saw it.
		conflict string
	}{
		{"records and checkpoints rewound together, the log regrown past a kept size", func(t *testing.T, dir string) {
			cut(t, dir, 3)
			require.NoError(t, os.WriteFile(filepath.Join(dir, evidence.CheckpointsFile), nil, 0o644))
		}, 1, "another root at size 4"},
		{"records and checkpoints rewound together, restarted at a new size", func(t *testing.T, dir string) {
			cut(t, dir, 3)
			require.NoError(t, os.WriteFile(filepath.Join(dir, evidence.CheckpointsFile), nil, 0o644))
		}, 0, "no consistency proof from any head kept"},
		{"records rewound, checkpoints rewound to the first head", func(t *testing.T, dir string) {
			cut(t, dir, 3)
			data, err := os.ReadFile(filepath.Join(dir, evidence.CheckpointsFile))
			require.NoError(t, err)
			first := data[:bytes.IndexByte(data, '\n')+1]
			require.NoError(t, os.WriteFile(filepath.Join(dir, evidence.CheckpointsFile), first, 0o644))
		}, 2, "is not an extension of head 4"},
		{"everything deleted, a fresh key", func(t *testing.T, dir string) {
			for _, f := range []string{evidence.ReceiptsFile, evidence.CheckpointsFile, evidence.SigningKeyFile, evidence.VerifierKeyFile} {
				require.NoError(t, os.Remove(filepath.Join(dir, f)))
			}
		}, 3, "signed by another key"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHeadLog(t)
			h.write(t, 6) // heads 2, 4, 6
			tc.rewind(t, h.dir)
			h.write(t, tc.calls)
			last := h.heads[len(h.heads)-1]
			assert.Contains(t, last.Conflict, tc.conflict, "%+v", last)

			rep, err := evidence.VerifyWith(h.dir, evidence.VerifyOptions{Published: []string{exportHeads(t, h.store, h.ws)}})
			require.NoError(t, err)
			assert.False(t, rep.OK(), "the rewind went unseen")
		})
	}
}

func TestHeadStoreRefusesABadSignature(t *testing.T) {
	h := newHeadLog(t)
	h.write(t, 2)
	cp := h.heads[0].Checkpoint
	cp.Root = strings.Repeat("ab", 32)
	_, err := h.store.Add(h.ws, cp, time.Now())
	assert.ErrorIs(t, err, broker.ErrHeadRefused)
}

// TestRedTeamConductorKeepsHeadsOverNATS: a workspace's heads travel as durable
// evidence:checkpoint events through its sidecar and JetStream to the control plane's
// KeepHeads; after the workspace empties its checkpoints and restarts, or rewinds
// records and checkpoints together, verify against the control plane's export fails.
func TestRedTeamConductorKeepsHeadsOverNATS(t *testing.T) {
	node := singleNode(t)
	nc := connect(t, node.url())
	ensureStreams(t, nc, 1)
	store, err := broker.OpenHeadStore(t.TempDir())
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var (
		mu   sync.Mutex
		kept []broker.Head
		wg   sync.WaitGroup
	)
	ready := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		assert.NoError(t, broker.KeepHeads(ctx, nc, "heads", store, func() { close(ready) }, func(ws string, h broker.Head, err error) {
			assert.NoError(t, err)
			assert.Equal(t, "ws-a", ws)
			mu.Lock()
			kept = append(kept, h)
			mu.Unlock()
		}))
	}()
	t.Cleanup(func() { cancel(); wg.Wait() })
	<-ready
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(kept) }

	state := t.TempDir()
	dir := filepath.Join(state, "evidence")
	var fwd func(events.Event, bool)
	hub, err := events.NewHub(events.Config{Dir: filepath.Join(state, "events"), Source: "ws-a", From: "ws-a",
		Forward: func(e events.Event, d bool) { fwd(e, d) }})
	require.NoError(t, err)
	t.Cleanup(func() { _ = hub.Close() })
	sc, err := broker.New(broker.Config{Conn: nc, Subject: "ws-a", MaxBackoff: 200 * time.Millisecond})
	require.NoError(t, err)
	fwd = sc.Forward
	require.NoError(t, sc.Start(hub))
	t.Cleanup(func() { _ = sc.Close() })
	onErr := func(err error) { t.Errorf("publish: %v", err) }
	run := func(n int) {
		l, err := evidence.Open(evidence.Config{Dir: dir, CheckpointEvery: 2, CheckpointIdle: -1, OnCheckpoint: broker.PublishCheckpoints(hub, onErr)})
		require.NoError(t, err)
		for i := range n {
			require.NoError(t, l.Append(&evidence.Receipt{ID: fmt.Sprint("c-", i)}))
		}
		require.NoError(t, l.Close())
	}

	run(4) // heads 2 and 4
	eventually(t, arrives, func() bool { return count() == 2 }, "heads kept: %d, want 2", count())
	export := exportHeads(t, store, "ws-a")
	rep, err := evidence.VerifyWith(dir, evidence.VerifyOptions{Published: []string{export}})
	require.NoError(t, err)
	require.True(t, rep.OK(), "%+v", rep.Problems)

	// Checkpoints emptied and the server restarted: the log signs head 4 again, but
	// head 2, kept by the control plane, is gone from the workspace.
	require.NoError(t, os.WriteFile(filepath.Join(dir, evidence.CheckpointsFile), nil, 0o644))
	run(0)
	rep, err = evidence.VerifyWith(dir, evidence.VerifyOptions{Published: []string{export}})
	require.NoError(t, err)
	assert.Contains(t, kindsOf(rep), evidence.Rewound, "%+v", rep.Problems)

	// Records and checkpoints rewound together, then the server restarted and ran one
	// more call: its head (3) is kept with a conflict, and the log fails against head 4.
	require.NoError(t, os.Truncate(filepath.Join(dir, evidence.ReceiptsFile), firstLines(t, filepath.Join(dir, evidence.ReceiptsFile), 2)))
	require.NoError(t, os.WriteFile(filepath.Join(dir, evidence.CheckpointsFile), nil, 0o644))
	run(1)
	var rewound broker.Head
	eventually(t, arrives, func() bool {
		mu.Lock()
		defer mu.Unlock()
		for _, h := range kept {
			if h.N == 3 {
				rewound = h
				return true
			}
		}
		return false
	}, "the rewound log's head never arrived")
	assert.NotEmpty(t, rewound.Conflict, "%+v", rewound)
	rep, err = evidence.VerifyWith(dir, evidence.VerifyOptions{Published: []string{exportHeads(t, store, "ws-a")}})
	require.NoError(t, err)
	assert.Contains(t, kindsOf(rep), evidence.Truncated, "%+v", rep.Problems)
}

func kindsOf(rep evidence.Report) []string {
	var out []string
	for _, p := range rep.Problems {
		out = append(out, p.Kind)
	}
	return out
}

// firstLines is the size of the first n lines of path.
func firstLines(t *testing.T, path string, n int) int64 {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var size int64
	for i := 0; i < len(data) && n > 0; i++ {
		if data[i] == '\n' {
			n--
			size = int64(i + 1)
		}
	}
	return size
}
