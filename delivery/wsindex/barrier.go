package wsindex

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// DefaultBarrierTimeout is how long a call waits for the watcher to catch up before it
// falls back to validating by stat.
const DefaultBarrierTimeout = time.Second

// The barrier: one inotify instance delivers its events in the order the changes were
// made, across every directory it watches. A call renames the one file of a private
// directory the same watcher watches to a fresh sequence number (a rename costs a
// fraction of a create, which some filesystems journal), and waits until the watcher
// has handled the event of that name: by then every change made before the call
// started has been handled too (its path marked suspect, or a rescan ordered). Entries
// read under a watch are then valid without a stat until an event or a rescan says
// otherwise; only the watched directories and their ancestors are stat'ed, to see a
// directory replaced as a whole (a watch follows the directory, not its name).

const barrierPrefix = "b-"

// startBarrier makes and watches the private directory; without it, calls validate by
// stat. x.w is set.
func (x *Index) startBarrier() {
	dir, err := os.MkdirTemp("", "wsindex-barrier-")
	if err != nil {
		return
	}
	name := filepath.Join(dir, barrierPrefix+"0")
	if err := os.WriteFile(name, nil, 0o600); err != nil {
		_ = os.RemoveAll(dir)
		return
	}
	if err := x.w.Add(dir); err != nil {
		_ = os.RemoveAll(dir)
		return
	}
	x.barrierDir, x.barrierName = dir, name
	x.barrierCh = make(chan struct{})
}

// barrierEvent handles an event of the private directory: the barrier file arriving
// under a name (fsnotify reports a rename's new name as Create) releases the calls
// waiting for its number and every smaller one.
func (x *Index) barrierEvent(path string, created bool) {
	name := filepath.Base(path)
	n, err := strconv.ParseUint(strings.TrimPrefix(name, barrierPrefix), 10, 64)
	if !created || !strings.HasPrefix(name, barrierPrefix) || err != nil {
		return
	}
	x.mu.Lock()
	if n > x.barrierSeen {
		x.barrierSeen = n
		close(x.barrierCh)
		x.barrierCh = make(chan struct{})
	}
	x.mu.Unlock()
}

// sync waits for the watcher to handle every change made before it was called, then
// checks that no watched directory (or ancestor) was replaced, ordering a rescan if one
// was. It reports whether the call may trust covered entries without a stat: false when
// there is no watcher, or it did not catch up within the timeout.
func (x *Index) sync() bool {
	if x.barrierDir == "" {
		return false
	}
	x.barrierMu.Lock()
	x.barrierNext++
	n := x.barrierNext
	next := filepath.Join(x.barrierDir, fmt.Sprintf("%s%d", barrierPrefix, n))
	err := os.Rename(x.barrierName, next)
	if err == nil {
		x.barrierName = next
	}
	x.barrierMu.Unlock()
	if err != nil {
		return false
	}
	timeout := time.NewTimer(x.opts.BarrierTimeout)
	defer timeout.Stop()
	for {
		x.mu.Lock()
		seen, ch := x.barrierSeen, x.barrierCh
		x.mu.Unlock()
		if seen >= n {
			break
		}
		select {
		case <-ch:
		case <-x.done:
			return false
		case <-timeout.C:
			return false
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.stats.Barriers++
	ok := true
	for p, id := range x.chain {
		fi, err := x.stat(p)
		x.stats.Stats++
		if err != nil || !sameIdentity(sigOf(fi), id) {
			ok = false
			break
		}
	}
	if !ok {
		// A directory on the way to what we watch was replaced: nothing read under it can
		// be trusted, and its watches follow the old directories. Watch anew, read anew.
		x.rescanLocked()
		for d := range x.watched {
			x.rewatch(d)
		}
		x.watched, x.chain = map[string]bool{}, map[string]sig{}
	}
	return ok
}

func sameIdentity(a, b sig) bool { return a.SameIdentity(b) }

// noteWatched records that dir (whose identity the watch follows is s) is watched from
// now on, with the identity of each directory between it and the root: the chain sync
// checks. Called after the watch was added, outside x.mu.
func (x *Index) noteWatched(dir string, s sig) {
	chain := map[string]sig{dir: s}
	for p := dir; p != x.root && strings.HasPrefix(p, x.root+string(filepath.Separator)); {
		p = filepath.Dir(p)
		fi, err := x.stat(p)
		if err != nil {
			return // gone already: it is watched again when it is next read
		}
		chain[p] = sigOf(fi)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.watched[dir] = true
	for p, s := range chain {
		if _, ok := x.chain[p]; !ok {
			x.chain[p] = s
		}
	}
}

// closeBarrier removes the private directory.
func (x *Index) closeBarrier() {
	if x.barrierDir != "" {
		_ = os.RemoveAll(x.barrierDir)
	}
}
