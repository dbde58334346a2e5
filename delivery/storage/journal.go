package storage

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/cmdbridge/cmdbridge/internal/failpoint"
	"github.com/cmdbridge/cmdbridge/kernel/journal"
	"github.com/cmdbridge/cmdbridge/tool"
)

// A Journal is one command run's write journal: before the first write of each path
// under its workspace root it records the path's pre-image, so that a run that fails
// after it started writing can put the workspace back as it found it ([Journal.Rollback])
// and a run that succeeds forgets it ([Journal.Discard]). The records reach disk
// (package kernel/journal: a file in the worktree's git directory, fsync'd) before the
// write they protect, so a run killed half-way is rolled back by the next run that
// begins a journal on the worktree, or by the next kernel that opens it.
//
// Pre-images: a path that did not exist (removed on rollback; a directory only when
// empty), a file's content and mode (rewritten atomically), or, for an append-only JSONL
// log, its byte size (truncated back to it). Rollback restores in reverse order of the
// records. Git's own files (.git) are never journaled; the paths the run is about to
// stage (the §2.4 commit step) are journaled before `git add`, and rollback resets their
// index entries to HEAD's (`git reset -q -- <paths>`). A commit that succeeded is a
// durable point: the entries recorded before it are dropped, so a later failure never
// undoes committed state.
//
// The write helpers of this package find the journal through the workspace root the
// path lies under ([BeginJournal] registers it for the run), so no write signature
// carries it. One journal is active per root in a process: a second run that begins on a
// root already journaled in this process gets an inert journal (its writes are recorded
// in the first run's). Across processes the worktree's journal lock serialises runs. A
// nil *Journal is inert.
type Journal struct {
	root string
	held *journal.Held // nil when inert

	mu      sync.Mutex
	entries []journal.Record
	seen    map[string]bool
	staged  []string // root-relative paths git add staged in this run
	// toCommit: the journal holds the commit step (staging is its first), so a replay
	// that finds HEAD moved knows the commit landed.
	toCommit bool
}

var journals = struct {
	sync.Mutex
	byRoot map[string]*Journal
}{byRoot: map[string]*Journal{}}

// BeginJournal starts the write journal of one run on the workspace at root (absolute):
// it takes the worktree's journal lock, waiting for a run of another process to end,
// and replays the journal of a run that died (environ: the environment of the git reset
// that may take). When a journal is already active on root in this process, it returns
// an inert one. An error (the lock, or a replay that could not restore) means the run
// must not write.
func BeginJournal(ctx context.Context, root string, environ []string) (*Journal, error) {
	root = filepath.Clean(root)
	j := &Journal{root: root, seen: map[string]bool{}}
	journals.Lock()
	if _, busy := journals.byRoot[root]; busy {
		journals.Unlock()
		return j, nil
	}
	journals.byRoot[root] = j
	journals.Unlock()
	held, err := journal.Lock(ctx, root, environ)
	if err != nil {
		j.end()
		return nil, Errorf(tool.CodeIOError, "%w", err)
	}
	j.held = held
	return j, nil
}

// Replayed is what beginning the journal found of a run that died.
func (j *Journal) Replayed() journal.Replay {
	if j == nil || j.held == nil {
		return journal.Replay{}
	}
	return j.held.Replayed
}

// JournalFor is the active journal whose root holds path (absolute), or nil.
func JournalFor(path string) *Journal {
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
	journals.Lock()
	if journals.byRoot[j.root] == j {
		delete(journals.byRoot, j.root)
	}
	journals.Unlock()
}

func (j *Journal) inert() bool { return j == nil || j.held == nil }

// Discard ends the journal of a run that succeeded: nothing is restored, the journal is
// removed and its lock released.
func (j *Journal) Discard() error {
	if j.inert() {
		return nil
	}
	j.end()
	j.mu.Lock()
	j.entries, j.seen, j.staged = nil, map[string]bool{}, nil
	j.mu.Unlock()
	return j.held.Close()
}

// Rollback ends the journal of a run that failed: every journaled path is restored to its
// pre-image, newest record first, and paths the run staged get their index entries back
// from HEAD; then the journal is removed and its lock released. It returns the first
// restore error (it goes on restoring the others), and then keeps the journal on disk
// for the next run to replay. unstage resets the index entries of the staged paths
// (root-relative) of the worktree at root to HEAD's; the domain passes one that runs
// `git reset -q -- <paths>`.
func (j *Journal) Rollback(unstage func(root string, paths []string) error) error {
	if j.inert() {
		return nil
	}
	j.end()
	j.mu.Lock()
	entries, staged := j.entries, j.staged
	j.entries, j.seen, j.staged = nil, map[string]bool{}, nil
	j.mu.Unlock()
	err := journal.Restore(entries)
	if len(staged) > 0 {
		if rerr := unstage(j.root, staged); err == nil {
			err = rerr
		}
	}
	if err != nil {
		j.held.Release()
		return err
	}
	return j.held.Close()
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

// record journals, durably, the pre-images a write of path is about to change before it
// begins: the missing directories between the root and dir (outermost first), then the
// path itself unless dirOnly — its full content, or its size when appendOnly. A size
// record is followed by the full pre-image when the path is later rewritten: an
// append-only file's first size bytes are still its pre-image.
func (j *Journal) record(dir, path string, appendOnly, dirOnly bool) error {
	if j.inert() {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	var recs []journal.Record
	var missing []string
	if dir = filepath.Clean(dir); !j.inGit(dir) {
		for d := dir; d != j.root && strings.HasPrefix(d, j.root+string(filepath.Separator)); d = filepath.Dir(d) {
			if _, err := os.Lstat(d); err == nil {
				break
			}
			missing = append(missing, d)
		}
	}
	for _, d := range slices.Backward(missing) {
		if !j.seen[d] {
			recs = append(recs, journal.Record{Op: journal.OpAbsent, Path: d, Dir: true})
		}
	}
	if !dirOnly {
		if r, ok := j.preImage(filepath.Clean(path), appendOnly); ok {
			recs = append(recs, r)
		}
	}
	if len(recs) == 0 {
		return nil
	}
	if err := j.held.Append(recs...); err != nil {
		return Errorf(tool.CodeIOError, "%w", err)
	}
	for _, r := range recs {
		j.seen[r.Path] = true
		if r.Op == journal.OpSize {
			j.seen[r.Path+"\x00size"] = true
		}
	}
	j.entries = append(j.entries, recs...)
	return nil
}

// preImage is path's record, or false when it needs none (already recorded, git's own,
// an existing directory, unreadable).
func (j *Journal) preImage(path string, appendOnly bool) (journal.Record, bool) {
	if j.inGit(path) {
		return journal.Record{}, false
	}
	if j.seen[path] {
		// Only a size record is upgraded: by a rewrite, to the content of its first size bytes.
		if appendOnly || !j.seen[path+"\x00size"] {
			return journal.Record{}, false
		}
		delete(j.seen, path+"\x00size")
		i := slices.IndexFunc(j.entries, func(e journal.Record) bool { return e.Path == path })
		e := j.entries[i]
		data, err := os.ReadFile(path)
		if err != nil || int64(len(data)) < e.Size {
			return journal.Record{}, false
		}
		return journal.Record{Op: journal.OpFile, Path: path, Data: data[:e.Size], Mode: e.Mode}, true
	}
	fi, err := os.Lstat(path)
	switch {
	case err != nil:
		return journal.Record{Op: journal.OpAbsent, Path: path}, true
	case fi.IsDir():
		return journal.Record{}, false // an existing directory is not ours to restore
	case appendOnly:
		return journal.Record{Op: journal.OpSize, Path: path, Size: fi.Size(), Mode: fi.Mode().Perm()}, true
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return journal.Record{}, false
	}
	return journal.Record{Op: journal.OpFile, Path: path, Data: data, Mode: fi.Mode().Perm()}, true
}

// Staging journals, durably, the root-relative paths git add is about to stage for a
// commit: it is also the commit step (one record, one fsync, for both).
func (j *Journal) Staging(paths []string) error {
	if j.inert() {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.held.Append(journal.Record{Op: journal.OpStaged, Paths: paths}); err != nil {
		return Errorf(tool.CodeIOError, "%w", err)
	}
	j.staged = append(j.staged, paths...)
	j.toCommit = true
	return nil
}

// Committing journals, durably, that git commit is about to run, unless staging already
// did: from then on a replay that finds HEAD moved knows the commit landed.
func (j *Journal) Committing() error {
	if j.inert() {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.toCommit {
		return nil
	}
	if err := j.held.Append(journal.Record{Op: journal.OpCommit}); err != nil {
		return Errorf(tool.CodeIOError, "%w", err)
	}
	j.toCommit = true
	return nil
}

// Committed marks a durable point: what the run wrote so far is in a commit.
func (j *Journal) Committed() error {
	failpoint.Hit(failpoint.AfterCommit)
	if j.inert() {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries, j.seen, j.staged, j.toCommit = nil, map[string]bool{}, nil, false
	return j.held.Reset()
}

// JournalWrite records path's pre-image in the active journal, durably, before a write
// that replaces, creates or removes it (its missing parent directories too). An error
// means the write must not happen.
func JournalWrite(path string) error {
	return JournalFor(path).record(filepath.Dir(path), path, false, false)
}

// JournalAppend records an append-only file's size before an append.
func JournalAppend(path string) error {
	return JournalFor(path).record(filepath.Dir(path), path, true, false)
}

// JournalMkdir records the directories a MkdirAll of dir is about to create.
func JournalMkdir(dir string) error {
	return JournalFor(dir).record(dir, "", false, true)
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
