package delivery

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSendSignalConcurrentSeededSendersGetDistinctIDs(t *testing.T) {
	root := t.TempDir()
	env := mapEnv(map[string]string{"DELIVERY_NOW": "2026-03-01T10:00:00.000Z", "DELIVERY_SEED": "s"})
	const writers, each = 4, 50
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				// A fresh runtime per send, as each process has: every sender starts at the
				// same seeded draw, so only the locked collision check keeps ids distinct.
				rt, err := NewRuntime(root, env)
				if err != nil {
					errs <- err
					return
				}
				if _, err := SendSignal(root, rt, SignalInput{Message: fmt.Sprintf("w%d-%d", w, i)}); err != nil {
					errs <- err
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	s, err := LoadSignals(root)
	require.NoError(t, err)
	assert.Empty(t, s.Invalid)
	require.Len(t, s.Signals, writers*each)
	seen := map[string]bool{}
	for _, sig := range s.Signals {
		assert.False(t, seen[sig.ID], "duplicate id %s", sig.ID)
		seen[sig.ID] = true
		assert.Equal(t, sig.ID, sig.RemoteID)
		assert.Regexp(t, `^sig-[0-9a-f]{8}$`, sig.ID)
	}
}

func TestSignalEffectiveReadAndMalformedLines(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, MemoryDir), 0o755))
	require.NoError(t, os.WriteFile(SignalsPath(root), []byte(
		`{"id":"sig-00000001","message":"a","created_at":"2026-03-01T10:00:00.000Z","read":false,"type":"coordination","sender":"system","origin":"local","remote_id":"sig-00000001"}`+"\n"+
			"{broken\n\n"+
			`{"id":"sig-00000002","message":"b","created_at":"2026-03-01T10:00:00.000Z","read":true,"type":"coordination","sender":"system","origin":"local","remote_id":"sig-00000002"}`+"\n"+
			`{"id":"sig-00000003","message":"c","created_at":"2026-03-01T10:00:00.000Z","read":false,"type":"coordination","sender":"system","origin":"local","remote_id":"sig-00000003"}`+"\n"), 0o644))
	require.NoError(t, MarkSignalsRead(root, []string{"sig-00000003"}, "2026-03-01T11:00:00.000Z"))
	s, err := LoadSignals(root)
	require.NoError(t, err)
	require.Len(t, s.Invalid, 1)
	assert.Equal(t, 2, s.Invalid[0].N)
	assert.Contains(t, s.Warnings()[0], "signals.jsonl line 2: invalid JSON")
	var read []bool
	for _, sig := range s.Effective() {
		read = append(read, sig.Read)
	}
	assert.Equal(t, []bool{false, true, true}, read)
	assert.False(t, s.Signals[2].Read, "Effective does not change the stored view")
}

func TestRewriteSignalStoreDropsReceiptsOfRemovedSignals(t *testing.T) {
	root := t.TempDir()
	rt, err := NewRuntime(root, mapEnv(map[string]string{"DELIVERY_SEED": "x", "DELIVERY_NOW": "2026-03-01T10:00:00.000Z"}))
	require.NoError(t, err)
	a, err := SendSignal(root, rt, SignalInput{Message: "a"})
	require.NoError(t, err)
	b, err := SendSignal(root, rt, SignalInput{Message: "b"})
	require.NoError(t, err)
	require.NoError(t, MarkSignalsRead(root, []string{a.ID, b.ID}, "2026-03-01T10:00:00.000Z"))
	require.NoError(t, RewriteSignalStore(root, []Signal{b}))
	s, err := LoadSignals(root)
	require.NoError(t, err)
	require.Len(t, s.Signals, 1)
	assert.Equal(t, b.ID, s.Signals[0].ID)
	require.Len(t, s.Receipts, 1)
	assert.Equal(t, b.ID, s.Receipts[0].SignalID)
}
