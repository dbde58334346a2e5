package evidence

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/lockedfile"
	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
	"golang.org/x/sys/unix"
)

// File names inside the evidence directory.
const (
	ReceiptsFile    = "receipts.jsonl"
	CheckpointsFile = "checkpoints.jsonl"
	SigningKeyFile  = "signing.key"
	VerifierKeyFile = "verifier.key"
)

// KeyName is the name the signing key is generated under.
const KeyName = "cmdbridge-evidence"

// SyncMode says how durable an appended receipt is when Append returns.
type SyncMode int

const (
	// SyncGroup writes and fdatasyncs before Append returns; concurrent appenders share
	// the sync. It is the default.
	SyncGroup SyncMode = iota
	// SyncBuffered writes (the kernel's page cache holds it) but does not sync; a machine
	// crash may lose the tail, which Verify then reports as truncated if a checkpoint
	// covered it.
	SyncBuffered
)

// DefaultCheckpointEvery is how many records a checkpoint covers when Options says 0.
const DefaultCheckpointEvery = 1000

// DefaultCheckpointIdle is how long a log waits after its last append before it signs a
// checkpoint covering the records no checkpoint covers yet.
const DefaultCheckpointIdle = time.Second

// Options configure a Log.
type Options struct {
	Dir             string
	CheckpointEvery int
	// CheckpointIdle signs a checkpoint this long after the last append when records are
	// uncovered, so a quiet log is always fully covered (0: DefaultCheckpointIdle;
	// negative: only every CheckpointEvery records and at Close).
	CheckpointIdle time.Duration
	Sync           SyncMode
	// Witness, when set, is a file outside the evidence directory to which every signed
	// checkpoint is also appended (and synced): the copy an operator keeps so that a log
	// rewritten together with its own checkpoints, or re-signed with another key, still
	// fails [VerifyWith].
	Witness string
}

// Log is an open evidence log. It is safe for concurrent use.
type Log struct {
	opts    Options
	f       *os.File
	cpf     *os.File
	witness *os.File
	signer  note.Signer
	// ids are the identities (device, inode) of the open receipts and checkpoints files:
	// a path that no longer names them means the log was replaced or removed under us.
	ids [2]fileID
	// idle is the quiet-period checkpoint timer; idleMu is held while its function runs,
	// so Close can wait for it.
	idle    *time.Timer
	idleMu  sync.Mutex
	closing bool

	mu       sync.Mutex
	cond     *sync.Cond
	queue    []*Receipt
	enqueued uint64
	done     uint64
	flushing bool
	closed   bool
	err      error

	// Owned by the current leader (flushing == true) or by Close.
	size     int64
	n        int64
	lastHash string
	hashes   []tlog.Hash
	lastCP   int64
	buf      bytes.Buffer
}

// Open opens (creating when needed) the log in opts.Dir, and the signing key.
func Open(opts Options) (*Log, error) {
	if opts.Dir == "" {
		return nil, errors.New("evidence: no directory")
	}
	if opts.CheckpointEvery <= 0 {
		opts.CheckpointEvery = DefaultCheckpointEvery
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("evidence: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(opts.Dir, ReceiptsFile), os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("evidence: %w", err)
	}
	cpf, err := os.OpenFile(filepath.Join(opts.Dir, CheckpointsFile), os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("evidence: %w", err)
	}
	l := &Log{opts: opts, f: f, cpf: cpf}
	l.cond = sync.NewCond(&l.mu)
	for i, file := range []*os.File{f, cpf} {
		if l.ids[i], err = idOf(file); err != nil {
			f.Close()
			cpf.Close()
			return nil, fmt.Errorf("evidence: %w", err)
		}
	}
	if opts.Witness != "" {
		if l.witness, err = os.OpenFile(opts.Witness, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600); err != nil {
			f.Close()
			cpf.Close()
			return nil, fmt.Errorf("evidence: witness: %w", err)
		}
	}
	err = l.locked(func() error {
		var err error
		if l.signer, err = loadOrCreateKey(opts.Dir); err != nil {
			return err
		}
		if l.lastCP, err = lastCheckpoint(cpf); err != nil {
			return err
		}
		if err := terminateTornLine(f); err != nil {
			return err
		}
		return l.catchUp()
	})
	if err != nil {
		l.closeFiles()
		return nil, fmt.Errorf("evidence: open %s: %w", opts.Dir, err)
	}
	if opts.CheckpointIdle == 0 {
		opts.CheckpointIdle = DefaultCheckpointIdle
	}
	l.opts.CheckpointIdle = opts.CheckpointIdle
	return l, nil
}

func (l *Log) closeFiles() error {
	err := errors.Join(l.f.Close(), l.cpf.Close())
	if l.witness != nil {
		err = errors.Join(err, l.witness.Close())
	}
	return err
}

// Append records r: it assigns r.Seq, r.PrevHash and r.Hash and returns once the record
// is written (and synced in SyncGroup mode), sharing the write with concurrent callers.
func (l *Log) Append(r *Receipt) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return errors.New("evidence: log is closed")
	}
	l.queue = append(l.queue, r)
	l.enqueued++
	mine := l.enqueued
	for l.done < mine {
		if l.err != nil {
			return l.err
		}
		if l.flushing {
			l.cond.Wait()
			continue
		}
		l.flushing = true
		// Let appenders that are about to queue join this write: one yield costs far
		// less than the sync they would otherwise wait for separately.
		l.mu.Unlock()
		runtime.Gosched()
		l.mu.Lock()
		batch := l.queue
		l.queue = nil
		l.mu.Unlock()
		err := l.commit(batch)
		l.mu.Lock()
		l.flushing = false
		l.done += uint64(len(batch))
		if err != nil && l.err == nil {
			l.err = fmt.Errorf("evidence: %w", err)
		}
		if err == nil {
			l.armIdleLocked()
		}
		l.cond.Broadcast()
	}
	return l.err
}

// armIdleLocked (re)starts the quiet-period timer that signs a checkpoint over records
// no checkpoint covers yet. l.mu is held.
func (l *Log) armIdleLocked() {
	if l.opts.CheckpointIdle < 0 || l.closing {
		return
	}
	if l.idle == nil {
		l.idle = time.AfterFunc(l.opts.CheckpointIdle, func() {
			l.idleMu.Lock()
			defer l.idleMu.Unlock()
			l.mu.Lock()
			closing := l.closing
			l.mu.Unlock()
			if !closing && l.Err() == nil {
				// A failure here shows again at the next append or Close.
				_ = l.Checkpoint()
			}
		})
		return
	}
	l.idle.Reset(l.opts.CheckpointIdle)
}

// Checkpoint signs the current tree head now (if it covers new records).
func (l *Log) Checkpoint() error {
	l.mu.Lock()
	for l.flushing {
		l.cond.Wait()
	}
	l.flushing = true
	l.mu.Unlock()
	err := l.locked(func() error {
		if err := l.catchUp(); err != nil {
			return err
		}
		return l.checkpointLocked()
	})
	l.mu.Lock()
	l.flushing = false
	l.cond.Broadcast()
	l.mu.Unlock()
	return err
}

// Close writes a final checkpoint and closes the files. Appends after Close fail.
func (l *Log) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closing = true
	if l.idle != nil {
		l.idle.Stop()
	}
	l.mu.Unlock()
	// A quiet-period checkpoint in progress finishes first; one that fires later sees
	// closing and does nothing.
	l.idleMu.Lock()
	defer l.idleMu.Unlock()
	var err error
	if l.Err() == nil {
		err = l.Checkpoint()
	}
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	return errors.Join(err, l.closeFiles())
}

// Err reports why the log can take no more receipts (closed, a failed write or sync, or
// its files replaced, removed or truncated under it), or nil while it is healthy. It
// stats the log's two paths on every call (a few microseconds), so a replacement is seen
// before the next call runs, not after.
func (l *Log) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return errors.New("evidence: log is closed")
	}
	if l.err == nil {
		if err := l.intact(); err != nil {
			l.err = err
		}
	}
	return l.err
}

// fileID identifies an open file across renames.
type fileID struct{ dev, ino uint64 }

func idOf(f *os.File) (fileID, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return fileID{}, err
	}
	return fileID{uint64(st.Dev), st.Ino}, nil
}

// intact checks that the log's paths still name the files it has open. A log whose
// file was replaced (a rename over it) or removed would otherwise go on appending to a
// file nobody can read again: every later receipt silently lost.
func (l *Log) intact() error {
	for i, name := range []string{ReceiptsFile, CheckpointsFile} {
		var st unix.Stat_t
		if err := unix.Stat(filepath.Join(l.opts.Dir, name), &st); err != nil {
			return fmt.Errorf("evidence: %s was removed under the running log: %w", name, err)
		}
		if (fileID{uint64(st.Dev), st.Ino}) != l.ids[i] {
			return fmt.Errorf("evidence: %s was replaced under the running log", name)
		}
	}
	return nil
}

// Len returns the number of records the log holds, as far as this writer knows.
func (l *Log) Len() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.flushing {
		l.cond.Wait()
	}
	return l.n
}

// commit writes batch under the cross-process lock, in queue order.
func (l *Log) commit(batch []*Receipt) error {
	return l.locked(func() error {
		if err := l.catchUp(); err != nil {
			return err
		}
		l.buf.Reset()
		for _, r := range batch {
			r.Seq = l.n + 1
			r.PrevHash = l.lastHash
			r.Hash = ""
			line, err := json.Marshal(r)
			if err != nil {
				return fmt.Errorf("receipt %s: %w", r.ID, err)
			}
			content := contentOf(line)
			h := tlog.RecordHash(content)
			stored, err := tlog.StoredHashesForRecordHash(l.n, h, tlog.HashReaderFunc(l.readHashes))
			if err != nil {
				return err
			}
			l.hashes = append(l.hashes, stored...)
			r.Hash = hex.EncodeToString(h[:])
			l.buf.Write(content[:len(content)-1])
			l.buf.WriteString(`,"hash":"`)
			l.buf.WriteString(r.Hash)
			l.buf.WriteString("\"}\n")
			l.n++
			l.lastHash = r.Hash
		}
		if _, err := l.f.Write(l.buf.Bytes()); err != nil {
			return err
		}
		l.size += int64(l.buf.Len())
		if l.opts.Sync == SyncGroup {
			if err := unix.Fdatasync(int(l.f.Fd())); err != nil {
				return fmt.Errorf("sync: %w", err)
			}
		}
		if l.n/int64(l.opts.CheckpointEvery) > l.lastCP/int64(l.opts.CheckpointEvery) {
			return l.checkpointLocked()
		}
		return nil
	})
}

// readHashes is the tlog.HashReader over the in-memory stored hashes.
func (l *Log) readHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		if x < 0 || x >= int64(len(l.hashes)) {
			return nil, fmt.Errorf("stored hash %d not available", x)
		}
		out[i] = l.hashes[x]
	}
	return out, nil
}

func (l *Log) checkpointLocked() error {
	if l.n == 0 || l.n == l.lastCP {
		return nil
	}
	root, err := tlog.TreeHash(l.n, tlog.HashReaderFunc(l.readHashes))
	if err != nil {
		return err
	}
	signed, err := note.Sign(&note.Note{Text: checkpointText(l.n, root)}, l.signer)
	if err != nil {
		return fmt.Errorf("sign checkpoint: %w", err)
	}
	line, err := json.Marshal(checkpoint{N: l.n, Root: hex.EncodeToString(root[:]), Note: string(signed)})
	if err != nil {
		return err
	}
	line = append(line, '\n')
	if _, err := l.cpf.Write(line); err != nil {
		return err
	}
	if l.opts.Sync == SyncGroup {
		if err := unix.Fdatasync(int(l.cpf.Fd())); err != nil {
			return fmt.Errorf("sync checkpoint: %w", err)
		}
	}
	if l.witness != nil {
		// The witness is synced whatever the mode: it exists to outlive the log.
		if _, err := l.witness.Write(line); err != nil {
			return fmt.Errorf("witness: %w", err)
		}
		if err := unix.Fdatasync(int(l.witness.Fd())); err != nil {
			return fmt.Errorf("sync witness: %w", err)
		}
	}
	l.lastCP = l.n
	return nil
}

// locked runs fn holding the exclusive file lock that serialises writers across
// processes (lockedfile on receipts.jsonl: released by the kernel if the process dies).
// A path that no longer names the open log is caught by fn's own intact check.
func (l *Log) locked(fn func() error) error {
	lf, err := lockedfile.OpenFile(filepath.Join(l.opts.Dir, ReceiptsFile), os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("lock: %w", err)
	}
	defer lf.Close()
	// The lock was taken on whatever the path names now: if that is not the file this
	// log appends to, the log was replaced under us (checked here for free, since the
	// open is paid for anyway).
	if id, err := idOf(lf.File); err != nil || id != l.ids[0] {
		return fmt.Errorf("%s was replaced under the running log", ReceiptsFile)
	}
	return fn()
}

// catchUp folds records appended by other writers (or present at open) into the tree.
func (l *Log) catchUp() error {
	st, err := l.f.Stat()
	if err != nil {
		return err
	}
	if st.Size() == l.size {
		return nil
	}
	if st.Size() < l.size {
		return fmt.Errorf("%s was truncated under the running log (%d bytes, %d expected)", ReceiptsFile, st.Size(), l.size)
	}
	r := bufio.NewReader(io.NewSectionReader(l.f, l.size, st.Size()-l.size))
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' {
			l.size += int64(len(line))
			line = bytes.TrimSpace(line)
			if len(line) == 0 {
				continue
			}
			content, hash, perr := splitLine(line)
			if perr != nil {
				// A torn or foreign line: Verify reports it as malformed; the chain
				// continues from the last good record.
				continue
			}
			h := tlog.RecordHash(content)
			stored, serr := tlog.StoredHashesForRecordHash(l.n, h, tlog.HashReaderFunc(l.readHashes))
			if serr != nil {
				return serr
			}
			l.hashes = append(l.hashes, stored...)
			l.n++
			l.lastHash = hash
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// contentOf turns a marshalled receipt with an empty hash into the hashed content: the
// line without its trailing ,"hash":"" member.
func contentOf(line []byte) []byte {
	const tail = `,"hash":""}`
	out := line[:len(line)-len(tail)]
	return append(out, '}')
}

// splitLine returns a stored line's hashed content and its recorded hash.
func splitLine(line []byte) (content []byte, hash string, err error) {
	const key = `,"hash":"`
	i := bytes.LastIndex(line, []byte(key))
	if i < 0 || !bytes.HasSuffix(line, []byte(`"}`)) {
		return nil, "", errors.New("no trailing hash member")
	}
	hash = string(line[i+len(key) : len(line)-2])
	content = append(append([]byte(nil), line[:i]...), '}')
	return content, hash, nil
}

type checkpoint struct {
	N    int64  `json:"n"`
	Root string `json:"root"`
	Note string `json:"note"`
}

func checkpointText(n int64, root tlog.Hash) string {
	return "cmdbridge evidence log\n" + strconv.FormatInt(n, 10) + "\n" + hex.EncodeToString(root[:]) + "\n"
}

func lastCheckpoint(f *os.File) (int64, error) {
	data, err := io.ReadAll(io.NewSectionReader(f, 0, 1<<62))
	if err != nil {
		return 0, err
	}
	var last int64
	for _, line := range strings.Split(string(data), "\n") {
		var cp checkpoint
		if strings.TrimSpace(line) == "" || json.Unmarshal([]byte(line), &cp) != nil {
			continue
		}
		last = cp.N
	}
	return last, nil
}

// loadOrCreateKey reads the signer key, creating the key pair on first use. It runs under
// the writers' lock, so two processes never create two keys.
func loadOrCreateKey(dir string) (note.Signer, error) {
	path := filepath.Join(dir, SigningKeyFile)
	skey, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		s, v, gerr := note.GenerateKey(rand.Reader, KeyName)
		if gerr != nil {
			return nil, gerr
		}
		if err := os.WriteFile(filepath.Join(dir, VerifierKeyFile), []byte(v+"\n"), 0o644); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, []byte(s+"\n"), 0o600); err != nil {
			return nil, err
		}
		skey = []byte(s)
	} else if err != nil {
		return nil, err
	}
	signer, err := note.NewSigner(strings.TrimSpace(string(skey)))
	if err != nil {
		return nil, fmt.Errorf("signing key: %w", err)
	}
	return signer, nil
}

// terminateTornLine ends a last line a crash left without its newline, so the next record
// starts on a line of its own (the torn line stays, and Verify reports it).
func terminateTornLine(f *os.File) error {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return err
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, st.Size()-1); err != nil {
		return err
	}
	if last[0] != '\n' {
		_, err = f.Write([]byte("\n"))
	}
	return err
}
