package journal

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

	"github.com/cmdbridge/cmdbridge/internal/failpoint"
	"github.com/cmdbridge/cmdbridge/kernel/statedir"
)

// FileName is the journal's name in the worktree's git directory.
const FileName = "cmdbridge-journal"

// Op is what a record restores or notes.
type Op string

// Ops of a record.
const (
	OpAbsent Op = "absent" // the path did not exist: remove it (a directory only when empty)
	OpFile   Op = "file"   // the file's content and mode
	OpSize   Op = "size"   // an append-only file's size: truncate it back
	OpStaged Op = "staged" // git add is about to stage Paths (root-relative), and then commit them
	OpCommit Op = "commit" // git commit is about to run (a commit that stages nothing)
)

// A Record is one line of the journal.
type Record struct {
	Op    Op          `json:"op"`
	Path  string      `json:"path,omitempty"` // absolute
	Dir   bool        `json:"dir,omitempty"`  // OpAbsent of a directory
	Mode  fs.FileMode `json:"mode,omitempty"`
	Data  []byte      `json:"data,omitempty"`
	Size  int64       `json:"size,omitempty"`
	Paths []string    `json:"paths,omitempty"`
}

// header is the journal's first line.
type header struct {
	Journal int    `json:"journal"` // format version: 1
	Root    string `json:"root"`
	Head    string `json:"head"` // HEAD when the journal began; "" outside a repository or before the first commit
}

// place is where a worktree's journal and lock are.
type place struct {
	root, lock, file string
	gitdir, common   string // "" outside a repository
}

func locate(root string) place {
	root = filepath.Clean(root)
	if gitdir, common, ok := statedir.Repository(root); ok {
		return place{root: root, lock: gitdir, file: filepath.Join(gitdir, FileName), gitdir: gitdir, common: common}
	}
	dir := filepath.Join(root, statedir.LegacyDir)
	return place{root: root, lock: root, file: filepath.Join(dir, "journal")}
}

// Held is a worktree's journal lock, held by one call. Its methods are not safe for
// concurrent use.
type Held struct {
	p       place
	environ []string
	lock    *os.File
	f       *os.File // the journal, once its first record is written
	noSync  bool     // benchmarks only: what the journal costs without its fsyncs
	// Replayed is what the replay at Lock time found (zero when there was no journal).
	Replayed Replay
}

// Lock takes the journal lock of the worktree holding root (blocking while another
// call, in this process or another, holds it), then replays any journal a dead process
// left. environ is the environment of the git reset a replay may run (nil: the
// process's). A replay that fails keeps the journal and fails the lock: the caller must
// not write over a workspace it could not restore.
func Lock(ctx context.Context, root string, environ []string) (*Held, error) {
	p := locate(root)
	lf, err := os.Open(p.lock)
	if err != nil {
		return nil, fmt.Errorf("journal lock: %w", err)
	}
	for {
		err = unix.Flock(int(lf.Fd()), unix.LOCK_EX)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		lf.Close()
		return nil, fmt.Errorf("journal lock %s: %w", p.lock, err)
	}
	h := &Held{p: p, environ: environ, lock: lf}
	if h.Replayed, err = replay(ctx, p, environ); err != nil {
		h.release()
		return nil, err
	}
	return h, nil
}

// Recover replays the journal a dead process left in the worktree holding root, under
// its lock, and lets the lock go.
func Recover(ctx context.Context, root string, environ []string) (Replay, error) {
	if _, err := os.Stat(root); errors.Is(err, fs.ErrNotExist) {
		return Replay{}, nil // nothing was ever written there
	}
	h, err := Lock(ctx, root, environ)
	if err != nil {
		return Replay{}, err
	}
	r := h.Replayed
	h.release()
	return r, nil
}

// Root is the directory the journal was taken for.
func (h *Held) Root() string { return h.p.root }

// Append writes records to the journal and makes them durable before it returns. The
// first append of a journal creates it with its header (HEAD read then).
func (h *Held) Append(recs ...Record) error {
	var buf bytes.Buffer
	if h.f == nil {
		if err := os.MkdirAll(filepath.Dir(h.p.file), 0o700); err != nil {
			return fmt.Errorf("journal: %w", err)
		}
		line, _ := json.Marshal(header{Journal: 1, Root: h.p.root, Head: head(h.p, h.environ)})
		buf.Write(line)
		buf.WriteByte('\n')
	}
	for _, r := range recs {
		line, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("journal: %w", err)
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	created := h.f == nil
	if created {
		f, err := os.OpenFile(h.p.file, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_APPEND, 0o600)
		if err != nil {
			return fmt.Errorf("journal: %w", err)
		}
		h.f = f
	}
	if _, err := h.f.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if h.noSync {
		return nil
	}
	if err := unix.Fdatasync(int(h.f.Fd())); err != nil {
		return fmt.Errorf("journal: sync: %w", err)
	}
	if created {
		if err := syncDir(filepath.Dir(h.p.file)); err != nil {
			return fmt.Errorf("journal: %w", err)
		}
	}
	failpoint.Hit(failpoint.Journal)
	return nil
}

// Reset forgets the journal after a commit landed: what the call wrote so far is
// committed state. The next append begins a new journal with the new HEAD.
func (h *Held) Reset() error {
	if h.f == nil {
		return nil
	}
	h.f.Close()
	h.f = nil
	if err := os.Remove(h.p.file); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// Close removes the journal of a call that is over (its writes committed, kept or
// rolled back) and releases the lock.
func (h *Held) Close() error {
	if h == nil {
		return nil
	}
	failpoint.Hit(failpoint.BeforeEnd)
	err := h.Reset()
	h.release()
	return err
}

// Release lets the lock go and keeps the journal on disk, for the next holder to replay:
// a call whose own rollback failed leaves it so.
func (h *Held) Release() {
	if h == nil {
		return
	}
	if h.f != nil {
		h.f.Close()
		h.f = nil
	}
	h.release()
}

func (h *Held) release() {
	if h.lock != nil {
		h.lock.Close() // releases the flock
		h.lock = nil
	}
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// read parses a journal file: its header and every record up to the first line that does
// not parse (a line torn by a crash, and anything after it, is ignored).
func read(path string) (header, []Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return header{}, nil, err
	}
	var hd header
	var recs []Record
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	first := true
	for sc.Scan() {
		line := sc.Bytes()
		if first {
			if err := json.Unmarshal(line, &hd); err != nil || hd.Journal != 1 {
				return header{}, nil, nil // torn before the first record: nothing was written
			}
			first = false
			continue
		}
		var r Record
		if err := json.Unmarshal(line, &r); err != nil || r.Op == "" {
			break
		}
		recs = append(recs, r)
	}
	return hd, recs, nil
}
