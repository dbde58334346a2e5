package parity

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/cmdbridge/cmdbridge/tool"
)

// Warm is what the warm lane (LaneWarm) runs the native implementation with, as a
// long-lived host runs it: always in the same directory,
// with the host's store handed to the call, so the warm state a native tool keeps per
// workspace root (the corpus's index) is reused from call to call. Before each call the
// directory is brought to the workspace's content by compare.SyncTreeSharingObjects,
// which rewrites only what differs, in place: the warm state must notice exactly those
// changes, which is what a warm parity run checks.
type Warm struct {
	// Store is handed to the native call as tool.Env.Store.
	Store *tool.Store
	// Dir is where the native lane's copy lives (in a directory named as the workspace
	// is); it must not lie inside the workspace.
	Dir string
}

// Kept is where the subprocess, adapter and native lanes of a series of calls (one
// script's) keep their directories, one per lane and workspace: each call brings a
// lane's directory to the workspace's content with compare.SyncTreeSharingObjects, which
// writes only what differs, instead of copying every file of the workspace for every lane of every call
// and removing the copies afterwards (a fresh copy per lane was most of what a parity
// call cost). A lane still starts each call from exactly the workspace's content. The
// directories are the caller's to remove (Close).
type Kept struct {
	mu   sync.Mutex
	root string            // "": not made yet
	byWS map[string]string // workspace -> its directory below root
}

// dir is the directory lane keeps for workspace ws.
func (k *Kept) dir(ws, lane string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.root == "" {
		root, err := os.MkdirTemp("", "parity-lanes-")
		if err != nil {
			return "", err
		}
		k.root, k.byWS = root, map[string]string{}
	}
	d, ok := k.byWS[ws]
	if !ok {
		d = filepath.Join(k.root, strconv.Itoa(len(k.byWS)))
		k.byWS[ws] = d
	}
	return filepath.Join(d, lane), nil
}

// keptKey is the testscript value under which a script keeps its Kept.
type keptKey struct{}

// keptOf is the script's Kept (nil outside a suite's script).
func keptOf(ts *testscript.TestScript) *Kept {
	k, _ := ts.Value(keptKey{}).(*Kept)
	return k
}

// Close removes the directories.
func (k *Kept) Close() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.root == "" {
		return nil
	}
	root := k.root
	k.root, k.byWS = "", nil
	return os.RemoveAll(root)
}

// store is w's store, nil for a nil Warm (a cold call).
func (w *Warm) store() *tool.Store {
	if w == nil {
		return nil
	}
	return w.Store
}

// warmKey is the testscript value under which a warm suite keeps a script's Warm.
type warmKey struct{}

// setupWarm gives one script its Warm: one store and one native directory for all of its
// parity and native commands, closed and removed when the script ends.
func setupWarm(env *testscript.Env) error {
	dir, err := os.MkdirTemp("", "parity-warm-")
	if err != nil {
		return err
	}
	w := &Warm{Store: tool.NewStore(), Dir: filepath.Join(dir, "native")}
	env.Values[warmKey{}] = w
	env.Defer(func() {
		_ = w.Store.Close()
		_ = os.RemoveAll(dir)
	})
	return nil
}

// warmOf is the script's Warm, or nil when the suite is not warm.
func warmOf(ts *testscript.TestScript) *Warm {
	w, _ := ts.Value(warmKey{}).(*Warm)
	return w
}
