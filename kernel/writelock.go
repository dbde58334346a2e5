package kernel

import (
	"context"
	"fmt"

	"github.com/rogpeppe/go-internal/lockedfile"
)

// WriteLockFile is the file in the state directory whose lock serialises the writing
// calls of one workspace (of one repository: every worktree shares the state).
const WriteLockFile = "write.lock"

// writeLock serialises the calls that may write the workspace and are not declared
// parallel-safe, across every kernel on the workspace: the surfaces of one process and
// other processes (a serve and an mcp on the same repository) alike. It is a file lock,
// so a process that dies holds nothing.
type writeLock struct{ mu *lockedfile.Mutex }

// acquire waits for the lock until ctx ends. A lock won after ctx ended is let go at once.
func (w writeLock) acquire(ctx context.Context) (release func(), err error) {
	type won struct {
		unlock func()
		err    error
	}
	got := make(chan won, 1)
	go func() {
		unlock, err := w.mu.Lock()
		got <- won{unlock, err}
	}()
	select {
	case g := <-got:
		if g.err != nil {
			return nil, fmt.Errorf("workspace write lock: %w", g.err)
		}
		return g.unlock, nil
	case <-ctx.Done():
		go func() {
			if g := <-got; g.err == nil {
				g.unlock()
			}
		}()
		return nil, ctx.Err()
	}
}

// serialised reports whether a call with this effect takes the workspace write lock:
// anything that may write, unless the tool declares itself parallel-safe.
func serialised(e *entry, readOnly bool) bool {
	return !readOnly && !e.spec.ParallelSafe
}
