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
// made, across every directory it watches. A call creates a file named after a fresh
// sequence number in a private directory the same watcher watches, and waits until the
// watcher has handled that file's event: by then every change made before the call
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
	if err := x.w.Add(dir); err != nil {
		_ = os.RemoveAll(dir)
		return
	}
	x.barrierDir = dir
	x.barrierCh = make(chan struct{})
}

// barrierEvent handles an event of the private directory: a created barrier file
// releases the calls waiting for its number (and every smaller one), then goes.
func (x *Index) barrierEvent(path string, created bool) {
	name := filepath.Base(path)
	n, err := strconv.ParseUint(strings.TrimPrefix(name, barrierPrefix), 10, 64)
	if !created || !strings.HasPrefix(name, barrierPrefix) || err != nil {
		return
	}
	_ = os.Remove(path)
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
	x.mu.Lock()
	x.barrierNext++
	n := x.barrierNext
	x.mu.Unlock()
	f, err := os.OpenFile(filepath.Join(x.barrierDir, fmt.Sprintf("%s%d", barrierPrefix, n)), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return false
	}
	_ = f.Close()
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

func sameIdentity(a, b sig) bool { return a.dev == b.dev && a.ino == b.ino }

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
