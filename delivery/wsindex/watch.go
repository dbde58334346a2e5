package wsindex

import (
	"path/filepath"

	"github.com/fsnotify/fsnotify"
)

// watch consumes the watcher's events and errors until it is closed. Watches are added
// outside x.mu (flushWatches): fsnotify may hold its own lock while it hands this
// goroutine an error, so an Add under x.mu could wait on a goroutine waiting on x.mu.
func (x *Index) watch() {
	defer close(x.done)
	events, errs := x.w.Events, x.w.Errors
	for events != nil || errs != nil {
		select {
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			if x.barrierDir != "" && filepath.Dir(ev.Name) == x.barrierDir {
				x.barrierEvent(ev.Name, ev.Has(fsnotify.Create))
				continue
			}
			x.mark(ev)
			if x.opts.OnWatch != nil {
				x.opts.OnWatch(ev.Name, nil)
			}
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			x.watchError(err)
			if x.opts.OnWatch != nil {
				x.opts.OnWatch("", err)
			}
		}
	}
}

// mark makes the reported path and its directory's listing suspect: both are re-read on
// their next access whatever their signatures say.
func (x *Index) mark(ev fsnotify.Event) {
	p := filepath.Clean(ev.Name)
	x.mu.Lock()
	defer x.mu.Unlock()
	x.suspect[p] = true
	x.suspect[filepath.Dir(p)] = true
	x.stats.Events++
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		// A watched directory that went away took its watch with it; it is watched again
		// when it is next read.
		delete(x.queued, p)
		delete(x.watched, p)
	}
}

// watchError turns any watcher error into a rescan. The one fsnotify reports in normal
// operation is ErrEventOverflow (the kernel queue was full and events were dropped); any
// other error is treated alike, since either way no cached entry may be trusted on its
// signature any more. Entries are re-read lazily, on their next access.
func (x *Index) watchError(error) {
	x.mu.Lock()
	x.rescanLocked()
	x.mu.Unlock()
}

// rescanLocked makes every entry be re-read on its next access. x.mu is held.
func (x *Index) rescanLocked() {
	x.epoch++
	x.stats.Rescans++
}

// watchLater queues a directory for a watch, once. x.mu is held.
func (x *Index) watchLater(dir string) {
	if x.w != nil && !x.queued[dir] {
		x.queued[dir] = true
		x.pending = append(x.pending, dir)
	}
}

// rewatch queues dir again (it was replaced by a new directory, which has no watch).
// x.mu is held.
func (x *Index) rewatch(dir string) {
	delete(x.queued, dir)
	delete(x.watched, dir)
	x.watchLater(dir)
}

// flushWatches adds the queued directories to the watcher outside x.mu (fsnotify's Add is
// safe for concurrent use and idempotent). A directory that cannot be watched (it does not
// exist yet) is queued again on a later access.
func (x *Index) flushWatches() {
	if x.w == nil {
		return
	}
	x.mu.Lock()
	dirs := x.pending
	x.pending = nil
	x.mu.Unlock()
	for _, d := range dirs {
		before, err := x.stat(d)
		if err == nil {
			err = x.w.Add(d)
		}
		if err == nil {
			// The watch is on the directory Add found; it covers entries only when that
			// is the one stat'ed before and after (not replaced in between).
			if after, err := x.stat(d); err == nil && sameIdentity(sigOf(before), sigOf(after)) {
				x.noteWatched(d, sigOf(after))
				continue
			}
		}
		x.mu.Lock()
		delete(x.queued, d)
		x.mu.Unlock()
	}
}
