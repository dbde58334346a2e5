package memory_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/memory"
	"github.com/cmdbridge/cmdbridge/delivery"
)

// deliveryEnv makes this test binary behave as the `delivery` binary when re-executed.
const deliveryEnv = "MEMORY_TEST_AS_DELIVERY"

func TestMain(m *testing.M) {
	if os.Getenv(deliveryEnv) == "1" {
		cli.OsExiter = os.Exit
		os.Exit(commands.Dispatch(context.Background(), commands.Default, "delivery", os.Args, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestSignalConcurrentProcesses runs two writers at once, each starting 50 `delivery
// mem:signal` processes one after another, against one workspace. The clock and seed are
// pinned, so every process draws the same first id: only the collision check made under the
// append lock keeps ids distinct. The store must end with 100 valid, distinct records
// (every process after the first collides, so 50 each exercise the check a hundred times).
func TestSignalConcurrentProcesses(t *testing.T) {
	const writers, each = 2, 50
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "workspace.yaml"), []byte("id: acme\n"), 0o644))
	// GORACE: a -race child otherwise sleeps 1s at exit.
	env := append(os.Environ(), deliveryEnv+"=1", "GORACE=atexit_sleep_ms=0", "DELIVERY_WORKSPACE="+root,
		"DELIVERY_NOW=2026-03-01T10:00:00.000Z", "DELIVERY_SEED=concurrency", "DELIVERY_OWNER=t@example.com")
	var wg sync.WaitGroup
	failures := make(chan string, writers*each)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				cmd := exec.Command(os.Args[0], "mem:signal", "--message", fmt.Sprintf("w%d-%d", w, i), "--sender", "w"+strconv.Itoa(w))
				cmd.Env, cmd.Dir = env, root
				if out, err := cmd.CombinedOutput(); err != nil {
					failures <- fmt.Sprintf("writer %d append %d: %v: %s", w, i, err, out)
				}
			}
		}(w)
	}
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}

	store, err := delivery.LoadSignals(root)
	require.NoError(t, err)
	assert.Empty(t, store.Invalid, "every line is a valid record")
	require.Len(t, store.Signals, writers*each)
	ids, messages := map[string]bool{}, map[string]int{}
	for _, s := range store.Signals {
		assert.False(t, ids[s.ID], "duplicate id %s", s.ID)
		ids[s.ID] = true
		messages[s.Message]++
	}
	for w := 0; w < writers; w++ {
		for i := 0; i < each; i++ {
			assert.Equal(t, 1, messages[fmt.Sprintf("w%d-%d", w, i)], "message w%d-%d", w, i)
		}
	}
}
