package delivery

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// A Journal is one command run's write journal: before the first write of each path
// under its workspace root it records the path's pre-image, so that a run that fails
// after it started writing can put the workspace back as it found it ([Journal.Rollback])
// and a run that succeeds forgets it ([Journal.Discard]).
//
// Pre-images: a path that did not exist (removed on rollback; a directory only when
// empty), a file's content and mode (rewritten atomically), or, for an append-only JSONL
// log, its byte size (truncated back to it). Rollback restores in reverse order of the
// records. Git's own files (.git) are never journaled; when the run staged its paths
// (the §2.4 commit step) and then failed, rollback also resets their index entries to
// HEAD's (`git reset -q -- <paths>`). A commit that succeeded is a durable point: the
// entries recorded before it are dropped, so a later failure never undoes committed
// state.
//
// The write helpers of this package find the journal through the workspace root the
// path lies under ([BeginJournal] registers it for the run), so no write signature
// carries it. One journal is active per root: the kernel serialises writers on a
// workspace, and a second run that begins on a root already journaled gets an inert
// journal (its writes are recorded in the first run's). A nil *Journal is inert.
type Journal struct {
	root string

	mu      sync.Mutex
	entries []journalEntry
	seen    map[string]int // path → index in entries
	staged  []string       // root-relative paths git add staged in this run
	inert   bool
}

type entryKind int

const (
	entryAbsent entryKind = iota // path did not exist: remove it
	entryFile                    // regular file: rewrite data with mode
	entrySize                    // append-only file: truncate to size
)

type journalEntry struct {
	path string
	kind entryKind
	dir  bool
	data []byte
	mode fs.FileMode
	size int64
}

var journals = struct {
	sync.Mutex
	byRoot map[string]*Journal
}{byRoot: map[string]*Journal{}}

// BeginJournal starts the write journal of one run on the workspace at root (absolute).
// When a journal is already active on root, it returns an inert one.
func BeginJournal(root string) *Journal {
	root = filepath.Clean(root)
	j := &Journal{root: root, seen: map[string]int{}}
	journals.Lock()
	defer journals.Unlock()
	if _, busy := journals.byRoot[root]; busy {
		j.inert = true
		return j
	}
	journals.byRoot[root] = j
	return j
}

// journalFor is the active journal whose root holds path (absolute), or nil.
func journalFor(path string) *Journal {
	path = filepath.Clean(path)
	journals.Lock()
	defer journals.Unlock()
	var best *Journal
	for root, j := range journals.byRoot {
		if (path == root || strings.HasPrefix(path, root+string(filepath.Separator))) && (best == nil || len(root) > len(best.root)) {
			best = j
		}
	}
	return best
}

func (j *Journal) end() {
	if j == nil || j.inert {
		return
	}
	journals.Lock()
	if journals.byRoot[j.root] == j {
		delete(journals.byRoot, j.root)
	}
	journals.Unlock()
}

// Discard ends the journal of a run that succeeded: nothing is restored.
func (j *Journal) Discard() {
	if j == nil {
		return
	}
	j.end()
	j.mu.Lock()
	j.entries, j.seen, j.staged = nil, map[string]int{}, nil
	j.mu.Unlock()
}

// Rollback ends the journal of a run that failed: every journaled path is restored to its
// pre-image, newest record first, and paths the run staged get their index entries back
// from HEAD. It returns the first restore error (it goes on restoring the others).
func (j *Journal) Rollback(ctx context.Context, rt *Runtime) error {
	if j == nil {
		return nil
	}
	j.end()
	if j.inert {
		return nil
	}
	j.mu.Lock()
	entries, staged := j.entries, j.staged
	j.entries, j.seen, j.staged = nil, map[string]int{}, nil
	j.mu.Unlock()
	var first error
	keep := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	for _, e := range slices.Backward(entries) {
		keep(e.restore())
	}
	if len(staged) > 0 {
		_, err := NewGit(j.root, rt).Output(ctx, append([]string{"reset", "-q", "--"}, staged...)...)
		keep(err)
	}
	return first
}

func (e journalEntry) restore() error {
	switch e.kind {
	case entryAbsent:
		err := os.Remove(e.path)
		if e.dir {
			return nil // removed only when empty: a directory someone else filled stays
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("roll back %s: %w", e.path, err)
		}
		return nil
	case entryFile:
		if err := writeFileAtomic(e.path, e.data, e.mode); err != nil {
			return fmt.Errorf("roll back %s: %w", e.path, err)
		}
		return os.Chmod(e.path, e.mode)
	case entrySize:
		f, err := os.OpenFile(e.path, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("roll back %s: %w", e.path, err)
		}
		defer f.Close()
		if err := f.Truncate(e.size); err != nil {
			return fmt.Errorf("roll back %s: %w", e.path, err)
		}
		return f.Sync()
	}
	return nil
}

// inGit reports whether path is git's own (under root/.git).
func (j *Journal) inGit(path string) bool {
	rel, err := filepath.Rel(j.root, path)
	if err != nil {
		return true
	}
	first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
	return first == ".git"
}

// record journals path's pre-image (full content, or size when appendOnly) before its
// first write in this run. A size record is upgraded to the full pre-image when the path
// is later rewritten: an append-only file's first size bytes are still its pre-image.
func (j *Journal) record(path string, appendOnly bool) {
	if j == nil || j.inert {
		return
	}
	path = filepath.Clean(path)
	if j.inGit(path) {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if i, ok := j.seen[path]; ok {
		if e := &j.entries[i]; e.kind == entrySize && !appendOnly {
			if data, err := os.ReadFile(path); err == nil && int64(len(data)) >= e.size {
				e.kind, e.data = entryFile, data[:e.size]
			}
		}
		return
	}
	e := journalEntry{path: path, kind: entryAbsent}
	if fi, err := os.Lstat(path); err == nil {
		switch {
		case fi.IsDir():
			return // an existing directory is not ours to restore
		case appendOnly:
			e.kind, e.size, e.mode = entrySize, fi.Size(), fi.Mode().Perm()
		default:
			data, err := os.ReadFile(path)
			if err != nil {
				return
			}
			e.kind, e.data, e.mode = entryFile, data, fi.Mode().Perm()
		}
	}
	j.seen[path] = len(j.entries)
	j.entries = append(j.entries, e)
}

// recordDirs journals the missing directories between root and dir (inclusive), outermost
// first, before a MkdirAll creates them.
func (j *Journal) recordDirs(dir string) {
	if j == nil || j.inert {
		return
	}
	dir = filepath.Clean(dir)
	if j.inGit(dir) {
		return
	}
	var missing []string
	for d := dir; d != j.root && strings.HasPrefix(d, j.root+string(filepath.Separator)); d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			break
		}
		missing = append(missing, d)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, d := range slices.Backward(missing) {
		if _, ok := j.seen[d]; ok {
			continue
		}
		j.seen[d] = len(j.entries)
		j.entries = append(j.entries, journalEntry{path: d, kind: entryAbsent, dir: true})
	}
}

// staged notes root-relative paths git add staged in this run.
func (j *Journal) noteStaged(paths []string) {
	if j == nil || j.inert {
		return
	}
	j.mu.Lock()
	j.staged = append(j.staged, paths...)
	j.mu.Unlock()
}

// committed marks a durable point: what the run wrote so far is in a commit.
func (j *Journal) committed() {
	if j == nil || j.inert {
		return
	}
	j.mu.Lock()
	j.entries, j.seen, j.staged = nil, map[string]int{}, nil
	j.mu.Unlock()
}

// JournalWrite records path's pre-image in the active journal before a write that
// replaces, creates or removes it (its missing parent directories too).
func JournalWrite(path string) {
	if j := journalFor(path); j != nil {
		j.recordDirs(filepath.Dir(path))
		j.record(path, false)
	}
}

// JournalAppend records an append-only file's size before an append.
func JournalAppend(path string) {
	if j := journalFor(path); j != nil {
		j.recordDirs(filepath.Dir(path))
		j.record(path, true)
	}
}

// JournalMkdir records the directories a MkdirAll of dir is about to create.
func JournalMkdir(dir string) {
	if j := journalFor(dir); j != nil {
		j.recordDirs(dir)
	}
}

// Len is the number of records (for tests and diagnostics).
func (j *Journal) Len() int {
	if j == nil {
		return 0
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.entries)
}
