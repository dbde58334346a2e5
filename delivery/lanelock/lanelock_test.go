package lanelock

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/delivery/storage"
)

var now = time.Date(2026, 3, 2, 18, 37, 8, 384e6, time.UTC)

func put(t *testing.T, root, lane, content string) {
	t.Helper()
	p := Path(root, lane)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

func TestAcquire(t *testing.T) {
	fresh := `{"lane":"Core: API","wuId":"WU-1","owner":"bob","timestamp":"2026-03-02T18:00:00.000Z"}` + "\n"
	old := `{"lane":"Core: API","wuId":"WU-1","owner":"bob","timestamp":"2026-03-02T10:00:00.000Z"}` + "\n"
	cases := []struct {
		name                           string
		existing                       string
		marker                         bool
		wu, owner                      string
		acquired, alreadyHeld, isStale bool
		holderOwner                    string
	}{
		{name: "free lane", wu: "WU-2", owner: "ada", acquired: true},
		{name: "held by other, fresh", existing: fresh, wu: "WU-2", owner: "ada", holderOwner: "bob"},
		{name: "same owner and wu", existing: fresh, wu: "WU-1", owner: "bob", acquired: true, alreadyHeld: true, holderOwner: "bob"},
		{name: "same owner other wu", existing: fresh, wu: "WU-2", owner: "bob", holderOwner: "bob"},
		{name: "stale takeover", existing: old, wu: "WU-2", owner: "ada", acquired: true, isStale: true, holderOwner: "bob"},
		// A marker file left behind by a takeover that crashed: nobody holds its lock, so
		// the next acquirer takes the stale lock over and removes the marker.
		{name: "stale, marker left by a crashed takeover", existing: old, marker: true, wu: "WU-2", owner: "ada", acquired: true, isStale: true, holderOwner: "bob"},
		{name: "unparsable is stale", existing: "garbage", wu: "WU-2", owner: "ada", acquired: true, isStale: true},
		{name: "no timestamp is stale", existing: `{"lane":"x","wuId":"WU-1","owner":"bob"}`, wu: "WU-2", owner: "ada", acquired: true, isStale: true, holderOwner: "bob"},
		{name: "legacy lock agentSession", existing: `{"wuId":"WU-1","timestamp":"2026-03-02T18:00:00.000Z","agentSession":"sess-1","pid":42,"lane":"Core: API"}`, wu: "WU-2", owner: "ada", holderOwner: "sess-1"},
		{name: "legacy lock pid", existing: `{"wuId":"WU-1","timestamp":"2026-03-02T18:00:00.000Z","agentSession":null,"pid":42,"lane":"Core: API"}`, wu: "WU-2", owner: "ada", holderOwner: "pid:42"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			if tc.existing != "" {
				put(t, root, "Core: API", tc.existing)
			}
			if tc.marker {
				require.NoError(t, os.WriteFile(Path(root, "Core: API")+".takeover", nil, 0o644))
			}
			res, err := Acquire(root, "Core: API", tc.wu, tc.owner, now, 2*time.Hour)
			require.NoError(t, err)
			assert.Equal(t, tc.acquired, res.Acquired)
			assert.Equal(t, tc.alreadyHeld, res.AlreadyHeld)
			assert.Equal(t, tc.isStale, res.IsStale)
			assert.Equal(t, ".lumenflow/locks/core-api.lock", res.LockPath)
			if tc.holderOwner != "" {
				require.NotNil(t, res.Holder)
				assert.Equal(t, tc.holderOwner, res.Holder.Owner)
			}
			data, err := os.ReadFile(Path(root, "Core: API"))
			require.NoError(t, err)
			switch {
			case tc.alreadyHeld || !tc.acquired:
				assert.Equal(t, tc.existing, string(data), "file untouched")
			default:
				assert.Equal(t, `{"lane":"Core: API","wuId":"`+tc.wu+`","owner":"`+tc.owner+`","timestamp":"2026-03-02T18:37:08.384Z"}`+"\n", string(data))
			}
			_, err = os.Stat(Path(root, "Core: API") + ".takeover")
			assert.ErrorIs(t, err, fs.ErrNotExist, "no marker is left behind")
		})
	}
}

// TestAcquireWaitsForTakeoverInProgress: while another process holds the takeover
// marker's lock, an acquirer of the stale lock waits; the other takeover then writes its
// fresh lock and releases, and the acquirer, re-reading, finds the lane held.
func TestAcquireWaitsForTakeoverInProgress(t *testing.T) {
	root := t.TempDir()
	put(t, root, "Core: API", `{"lane":"Core: API","wuId":"WU-1","owner":"bob","timestamp":"2026-03-02T10:00:00.000Z"}`+"\n")
	marker := Path(root, "Core: API") + ".takeover"
	unlock, err := storage.LockPath(marker)
	require.NoError(t, err)
	type outcome struct {
		res Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := Acquire(root, "Core: API", "WU-2", "ada", now, 2*time.Hour)
		done <- outcome{res, err}
	}()
	fresh := `{"lane":"Core: API","wuId":"WU-3","owner":"carol","timestamp":"2026-03-02T18:37:00.000Z"}` + "\n"
	put(t, root, "Core: API", fresh)
	require.NoError(t, os.Remove(marker))
	require.NoError(t, unlock())
	var got outcome
	select {
	case got = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Acquire still waiting after the takeover ended")
	}
	require.NoError(t, got.err)
	assert.False(t, got.res.Acquired)
	require.NotNil(t, got.res.Holder)
	assert.Equal(t, "carol", got.res.Holder.Owner)
	data, err := os.ReadFile(Path(root, "Core: API"))
	require.NoError(t, err)
	assert.Equal(t, fresh, string(data))
	_, err = os.Stat(marker)
	assert.ErrorIs(t, err, fs.ErrNotExist)
}

// TestAcquireAfterCrashedTakeover simulates a process killed between creating the
// marker and removing it: a child process takes the marker's lock and is SIGKILLed. The
// lane must not stay blocked: the next Acquire takes the stale lock over.
func TestAcquireAfterCrashedTakeover(t *testing.T) {
	root := t.TempDir()
	put(t, root, "Core: API", `{"lane":"Core: API","wuId":"WU-1","owner":"bob","timestamp":"2026-03-02T10:00:00.000Z"}`+"\n")
	marker := Path(root, "Core: API") + ".takeover"
	// flock(1) holds an exclusive lock on the marker in a child that then dies hard.
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("flock(1) not installed")
	}
	cmd := exec.Command("flock", "-x", marker, "sh", "-c", "kill -9 $$")
	_ = cmd.Run()
	_, err := os.Stat(marker)
	require.NoError(t, err, "the crashed takeover left its marker")
	res, err := Acquire(root, "Core: API", "WU-2", "ada", now, 2*time.Hour)
	require.NoError(t, err)
	assert.True(t, res.Acquired)
	assert.True(t, res.IsStale)
	_, err = os.Stat(marker)
	assert.ErrorIs(t, err, fs.ErrNotExist)
}

func TestAcquireConcurrentOneWinner(t *testing.T) {
	root := t.TempDir()
	var wg sync.WaitGroup
	wins := make(chan string, 16)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			res, err := Acquire(root, "L", "WU-1", string(rune('a'+i)), now, time.Hour)
			if err == nil && res.Acquired {
				wins <- string(rune('a' + i))
			}
		}(i)
	}
	wg.Wait()
	close(wins)
	assert.Len(t, wins, 1)
}

func TestReleaseAndList(t *testing.T) {
	root := t.TempDir()
	_, err := Acquire(root, "Core: API", "WU-1", "ada", now, time.Hour)
	require.NoError(t, err)
	_, err = Acquire(root, "Docs", "WU-2", "bob", now.Add(-3*time.Hour), time.Hour)
	require.NoError(t, err)

	list, err := List(root)
	require.NoError(t, err)
	require.Len(t, list, 2)
	assert.Equal(t, ".lumenflow/locks/core-api.lock", list[0].Path)
	assert.Equal(t, "ada", list[0].Owner)
	assert.False(t, list[0].Stale(now, time.Hour))
	assert.True(t, list[1].Stale(now, time.Hour))

	res, err := Release(root, "Core: API", "bob", false)
	require.NoError(t, err)
	assert.Equal(t, ReleaseResult{Reason: OwnerMismatch, LockPath: ".lumenflow/locks/core-api.lock", Previous: &list[0].Lock}, res)
	res, err = Release(root, "Core: API", "ada", false)
	require.NoError(t, err)
	assert.True(t, res.Released)
	res, err = Release(root, "Core: API", "ada", false)
	require.NoError(t, err)
	assert.Equal(t, NotFound, res.Reason)
	res, err = Release(root, "Docs", "someone", true)
	require.NoError(t, err)
	assert.True(t, res.Released)
	list, err = List(root)
	require.NoError(t, err)
	assert.Empty(t, list)
}
