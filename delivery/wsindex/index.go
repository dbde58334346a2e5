package wsindex

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/internal/filesig"
)

// DefaultRacyWindow is Options.RacyWindow's default: wider than the coarse kernel clock
// (a few milliseconds) and than the one- and two-second times of some filesystems.
const DefaultRacyWindow = 2 * time.Second

// Options tune an index; the zero value is the production setting.
type Options struct {
	// RacyWindow: an entry whose mtime or ctime is less than this before the moment it was
	// read is re-read on every access (see the package doc). 0: DefaultRacyWindow.
	RacyWindow time.Duration
	// Now is the clock of the racy rule (nil: time.Now). It must follow the clock the
	// filesystem stamps files with.
	Now func() time.Time
	// NoWatch leaves the watcher out: validation alone keeps the index true.
	NoWatch bool
	// OnWatch, when set, is called by the watcher goroutine after it handled an event
	// (err nil, the event's path) or an error; tests wait on it instead of sleeping.
	OnWatch func(path string, err error)
	// BarrierTimeout bounds a call's wait for the watcher to catch up (see the package
	// doc); a call that waits longer validates by stat. 0: DefaultBarrierTimeout.
	BarrierTimeout time.Duration
	// Check makes the index verify each cached value it is about to replace or drop, as
	// Verify does for the ones it holds, and keep the failures for Verify: a value a
	// writer changed in place and then rewrote is caught although its entry is gone.
	// For tests: it parses every replaced file twice.
	Check bool
}

// Stats count what the index did since New, for tests and benchmarks.
type Stats struct {
	// Stats is the number of stat calls that validated a cached entry.
	Stats int
	// Reads is the number of files and directories read (a missing one is not read).
	Reads int
	// Parses is the number of files parsed (a read that found the same bytes does not parse).
	Parses int
	// Events is the number of watcher events handled.
	Events int
	// Rescans is the number of times every entry was marked for re-reading (watcher
	// overflow or error, a watched directory replaced).
	Rescans int
	// Barriers is the number of calls that caught up with the watcher, and so trusted
	// covered entries without a stat.
	Barriers int
}

// Index is the warm index of one workspace root. It is safe for concurrent use.
type Index struct {
	root string
	opts Options
	stat func(string) (fs.FileInfo, error) // os.Stat; tests replace it

	mu      sync.Mutex
	checked []string          // Options.Check: values found changed in place when replaced
	files   map[string]*entry // root-relative slash path → file entry
	dirs    map[string]*entry // root-relative slash path → directory listing
	suspect map[string]bool   // absolute paths the watcher reported since they were read
	epoch   uint64            // bumped by a rescan; entries of an older epoch are re-read
	stats   Stats
	joins   map[string]join // values built from several entries (see joined)
	pending []string        // directories to watch, added outside mu (see flushWatches)
	queued  map[string]bool // directories queued or watched

	w    *fsnotify.Watcher
	done chan struct{}

	// The barrier (barrier.go). watched: directories whose watch is in place; chain: the
	// identity of each watched directory and of its ancestors up to the root.
	barrierDir  string
	barrierMu   sync.Mutex // orders the renames: barrierNext, barrierName
	barrierNext uint64
	barrierName string        // the barrier file's current path
	barrierSeen uint64        // the highest number the watcher handled (x.mu)
	barrierCh   chan struct{} // closed when barrierSeen grows
	watched     map[string]bool
	chain       map[string]sig
}

// sig is what validation compares (package internal/filesig).
type sig = filesig.Sig

// sigOf is the signature of a stat result.
func sigOf(fi fs.FileInfo) sig { return filesig.Of(fi) }

// entry is one cached file or directory listing (only existing ones are cached). Entries
// are immutable once stored: a refresh stores a new one, so values handed out stay
// consistent.
type entry struct {
	exists  bool
	openErr error // why it does not exist (the open error), when !exists
	sig     sig
	trusted bool // the racy rule passed: the signature alone validates it
	// covered: read after the watch on its directory (or, for a listing, on itself) was
	// in place, so any later change makes it suspect; a call past the barrier trusts it
	// without a stat.
	covered bool
	epoch   uint64
	// abs is the entry's absolute path, watchDir the directory whose watch covers it
	// (its own for a listing).
	abs, watchDir string
	data          []byte // file content
	names         []name // directory entries, sorted
	val           any    // the parsed value
	err           error  // the parse error, kept with the bytes it came from

	parse  func([]byte) (any, error) // a file's parser, for Refresh
	derive func([]name) any          // a listing's value, for Refresh
}

type name struct {
	name string
	dir  bool
}

// New returns the index of root (the workspace's main checkout). Nothing is read until a
// call asks. The watcher starts now unless opts.NoWatch; a watcher that cannot start is
// not an error (validation alone is correct).
func New(root string, opts Options) *Index {
	if opts.RacyWindow <= 0 {
		opts.RacyWindow = DefaultRacyWindow
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.BarrierTimeout <= 0 {
		opts.BarrierTimeout = DefaultBarrierTimeout
	}
	x := &Index{root: filepath.Clean(root), opts: opts, stat: os.Stat, files: map[string]*entry{},
		dirs: map[string]*entry{}, suspect: map[string]bool{}, queued: map[string]bool{}, joins: map[string]join{},
		watched: map[string]bool{}, chain: map[string]sig{}}
	if !opts.NoWatch {
		if w, err := fsnotify.NewWatcher(); err == nil {
			x.w, x.done = w, make(chan struct{})
			x.startBarrier()
			go x.watch()
		}
	}
	return x
}

// Root is the workspace root the index serves.
func (x *Index) Root() string { return x.root }

// Close stops the watcher; the index keeps answering through validation alone.
func (x *Index) Close() error {
	if x.w == nil {
		return nil
	}
	err := x.w.Close()
	<-x.done
	x.closeBarrier()
	return err
}

// Stats returns the counters.
func (x *Index) Stats() Stats {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.stats
}

// Workspace opens the workspace of a call whose checkout is checkout (delivery.FindRoot's
// second result): workspace.yaml from the index, validated, and a Source over the index.
// Its errors are delivery.Load's.
func (x *Index) Workspace(checkout string) (*delivery.Workspace, error) {
	fast := x.sync()
	x.mu.Lock()
	e, err := x.file(fast, delivery.ConfigFile, func(data []byte) (any, error) {
		return delivery.LoadBytes(x.root, x.root, data, nil)
	})
	x.mu.Unlock()
	x.flushWatches()
	switch {
	case err != nil:
		return delivery.LoadBytes(x.root, checkout, nil, err)
	case !e.exists:
		return delivery.LoadBytes(x.root, checkout, nil, e.openErr)
	case e.err != nil:
		return nil, e.err
	}
	cfg := e.val.(*delivery.Workspace)
	ws := &delivery.Workspace{Root: x.root, Checkout: checkout, Doc: cfg.Doc, Config: cfg.Config}
	ws.Source = &source{x: x, ws: ws, fast: fast}
	return ws, nil
}

// Refresh validates every cached entry now, re-reading what changed, so that the next
// call finds it warm. Native writers call it after they wrote.
func (x *Index) Refresh() {
	fast := x.sync() // past the barrier, only what the writes made suspect is re-read
	x.mu.Lock()
	for rel, e := range x.files {
		if !x.holds(fast, e) {
			_, _ = x.file(fast, rel, e.parse)
		}
	}
	for rel, e := range x.dirs {
		if !x.holds(fast, e) {
			_, _ = x.dir(fast, rel, e.derive)
		}
	}
	x.mu.Unlock()
	x.flushWatches()
}

// holds reports what file or dir would find of e in a call past the barrier without
// touching it: covered, of this epoch, not made suspect and its directory's watch still
// queued. Refresh skips those, so a write costs what it changed, not what the index
// holds. x.mu is held.
func (x *Index) holds(fast bool, e *entry) bool {
	return fast && e.covered && e.epoch == x.epoch && !x.suspect[e.abs] && x.queued[e.watchDir]
}

// join is a value built from the parsed values of two entries (the memory store from
// memory.jsonl and relationships.jsonl), kept with them.
type join struct {
	a, b, val any
	build     func() any // for Verify
}

// joined returns the value build makes of a and b (the parsed values of two validated
// entries: pointers, or nil for a missing file), building it again only when either is
// not the one it was built from. A re-read that finds the same bytes keeps its parsed
// value, so the join holds across it. x.mu is held.
func (x *Index) joined(key string, a, b any, build func() any) any {
	if j, ok := x.joins[key]; ok && j.a == a && j.b == b {
		return j.val
	}
	v := build()
	x.joins[key] = join{a: a, b: b, val: v, build: build}
	return v
}

// Verify reports the cached values that differ from what their bytes parse to now: a
// value handed out and then changed in place by its caller, which the invariant "values
// handed out are shared and must not be changed" forbids. It parses every cached file
// again (from the bytes it was read from, as a first read would), derives every
// listing again and rebuilds every joined value, and compares (reflect.DeepEqual). It
// is for tests: it costs what reading the whole workspace again costs.
func (x *Index) Verify() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	bad := slices.Clone(x.checked)
	for _, rel := range slices.Sorted(maps.Keys(x.files)) {
		if x.changedInPlace(rel, x.files[rel]) {
			bad = append(bad, rel)
		}
	}
	for _, rel := range slices.Sorted(maps.Keys(x.dirs)) {
		if e := x.dirs[rel]; e.exists && e.derive != nil && !reflect.DeepEqual(e.derive(e.names), e.val) {
			bad = append(bad, rel+"/")
		}
	}
	for _, key := range slices.Sorted(maps.Keys(x.joins)) {
		if j := x.joins[key]; j.build != nil && !reflect.DeepEqual(j.build(), j.val) {
			bad = append(bad, key)
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("wsindex: cached values changed in place: %s", strings.Join(bad, ", "))
	}
	return nil
}

// changedInPlace reports whether e's value differs from what its bytes parse to. x.mu is
// held; e is x.files[rel].
func (x *Index) changedInPlace(rel string, e *entry) bool {
	if !e.exists || e.err != nil || e.parse == nil {
		return false
	}
	// A parser that extends the previous value (JSONL stores) must start afresh.
	delete(x.files, rel)
	v, err := e.parse(e.data)
	x.files[rel] = e
	return err != nil || !sameValue(v, e.val)
}

// sameValue is reflect.DeepEqual, except for event logs, whose per-WU index and spare
// capacity are caches derived from their lines: two logs are the same when their lines
// are.
func sameValue(a, b any) bool {
	if la, ok := a.(*delivery.EventLog); ok && la != nil {
		if lb, ok := b.(*delivery.EventLog); ok && lb != nil {
			return reflect.DeepEqual(la.Lines, lb.Lines)
		}
	}
	return reflect.DeepEqual(a, b)
}

func (x *Index) abs(rel string) string { return filepath.Join(x.root, filepath.FromSlash(rel)) }

// settled is the racy rule: the entry was read (t0 taken before its stat) more than the
// racy window after its last change, so any later write gets a later time.
func (x *Index) settled(t0 time.Time, s sig) bool { return s.Settled(t0, x.opts.RacyWindow) }

// unchanged reports whether a cached entry still holds and returns it: in a call past the
// barrier, a covered entry nothing made suspect holds as it is (no stat); otherwise a
// trusted one, not suspect, holds when its path's signature is the one it was read with
// (one stat), and comes back covered when its watch is now in place. watchDir is the
// directory whose watch covers the entry.
func (x *Index) unchanged(fast bool, old *entry, abs, watchDir string) (*entry, bool) {
	if old == nil || old.epoch != x.epoch || x.suspect[abs] {
		return nil, false
	}
	if fast && old.covered {
		return old, true
	}
	if !old.trusted {
		return nil, false
	}
	fi, err := x.stat(abs)
	x.stats.Stats++
	if err != nil || !sigOf(fi).Equal(old.sig) {
		return nil, false
	}
	if fast && x.watched[watchDir] {
		// Unchanged since it was read, and watched since before this stat: any change
		// from now on makes it suspect.
		e := *old
		e.covered = true
		return &e, true
	}
	return old, true
}

// file returns the validated entry of a root-relative file, reading and parsing it with
// parse when it is new, changed, untrusted or suspect. An error is a read error other
// than "does not exist" (a missing file is an entry with exists false). x.mu is held.
func (x *Index) file(fast bool, rel string, parse func([]byte) (any, error)) (*entry, error) {
	abs := x.abs(rel)
	dir := filepath.Dir(abs)
	x.watchLater(dir)
	old := x.files[rel]
	if e, ok := x.unchanged(fast, old, abs, dir); ok {
		if e != old {
			x.files[rel] = e
		}
		return e, nil
	}
	covered := fast && x.watched[dir] // the watch is in place before the read
	if x.opts.Check && old != nil && x.changedInPlace(rel, old) {
		x.checked = append(x.checked, rel)
	}
	// Cleared before reading: an event that arrives while we read marks it again.
	delete(x.suspect, abs)
	t0 := x.opts.Now()
	data, s, stable, err := readFile(abs)
	if err == nil && strings.HasSuffix(rel, ".jsonl") {
		// An append caught half way is read again once it is whole.
		data = storage.WholeLines(data, func() ([]byte, error) {
			d, s2, stable2, err := readFile(abs)
			if err == nil {
				s, stable = s2, stable2 // the signature of the bytes kept
			}
			return d, err
		})
	}
	if err != nil {
		// A missing file is not kept: asking again costs the same failed open a cached
		// answer would need to validate, and ids that name no file cannot pile up.
		delete(x.files, rel)
		if errors.Is(err, fs.ErrNotExist) {
			return &entry{openErr: err}, nil
		}
		return nil, err
	}
	x.stats.Reads++
	e := &entry{exists: true, sig: s, trusted: stable && x.settled(t0, s), covered: covered, epoch: x.epoch,
		abs: abs, watchDir: dir, data: data, parse: parse}
	if old != nil && bytes.Equal(old.data, data) {
		e.val, e.err = old.val, old.err
	} else {
		e.val, e.err = parse(data)
		x.stats.Parses++
	}
	x.files[rel] = e
	return e, nil
}

// readFile reads a file through one descriptor, with its signature; stable says the
// signature did not move while the content was read.
func readFile(abs string) (data []byte, s sig, stable bool, err error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, sig{}, false, err
	}
	defer f.Close()
	before, err := f.Stat()
	if err != nil {
		return nil, sig{}, false, err
	}
	data, err = readAll(f, before.Size())
	if err != nil {
		return nil, sig{}, false, err
	}
	after, err := f.Stat()
	if err != nil {
		return nil, sig{}, false, err
	}
	s = sigOf(after)
	return data, s, sigOf(before).Equal(s), nil
}

// dir returns the validated listing of a root-relative directory; derive, when set,
// computes the listing's value (sorted ids) once per read. x.mu is held.
func (x *Index) dir(fast bool, rel string, derive func([]name) any) (*entry, error) {
	abs := x.abs(rel)
	old := x.dirs[rel]
	if e, ok := x.unchanged(fast, old, abs, abs); ok {
		if e != old {
			x.dirs[rel] = e
		}
		return e, nil
	}
	covered := fast && x.watched[abs]
	delete(x.suspect, abs)
	t0 := x.opts.Now()
	names, s, stable, err := readDir(abs)
	if err != nil {
		delete(x.dirs, rel)
		if errors.Is(err, fs.ErrNotExist) {
			return &entry{openErr: err}, nil
		}
		return nil, err
	}
	x.stats.Reads++
	if old != nil && !old.sig.SameIdentity(s) {
		x.rewatch(abs) // a new directory under the old name has no watch yet
	}
	x.watchLater(abs)
	e := &entry{exists: true, sig: s, trusted: stable && x.settled(t0, s), covered: covered, epoch: x.epoch,
		abs: abs, watchDir: abs, names: names, derive: derive}
	if old != nil && slices.Equal(old.names, names) {
		e.val = old.val
	} else {
		e.val = derive(names)
	}
	x.dirs[rel] = e
	return e, nil
}

// readAll reads f to its end into a buffer of the size it had (one allocation for a file
// that did not grow, where io.ReadAll doubles its way up).
func readAll(f io.Reader, size int64) ([]byte, error) {
	b := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	_, err := b.ReadFrom(f)
	return b.Bytes(), err
}

// readDir lists a directory through one descriptor, sorted by name as os.ReadDir does.
func readDir(abs string) ([]name, sig, bool, error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, sig{}, false, err
	}
	defer f.Close()
	before, err := f.Stat()
	if err != nil {
		return nil, sig{}, false, err
	}
	des, err := f.ReadDir(-1)
	if err != nil {
		return nil, sig{}, false, err
	}
	after, err := f.Stat()
	if err != nil {
		return nil, sig{}, false, err
	}
	names := make([]name, len(des))
	for i, d := range des {
		names[i] = name{name: d.Name(), dir: d.IsDir()}
	}
	slices.SortFunc(names, func(a, b name) int {
		switch {
		case a.name < b.name:
			return -1
		case a.name > b.name:
			return 1
		}
		return 0
	})
	s := sigOf(after)
	return names, s, sigOf(before).Equal(s), nil
}
