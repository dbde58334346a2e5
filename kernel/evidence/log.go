package evidence

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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

// DefaultCheckpointEvery is how many records a checkpoint covers when Config says 0.
const DefaultCheckpointEvery = 1000

// DefaultCheckpointIdle is how long a log waits after its last append before it signs a
// checkpoint covering the records no checkpoint covers yet.
const DefaultCheckpointIdle = time.Second

// Config configures a Log.
type Config struct {
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
	// OnCheckpoint, when set, is handed every checkpoint this log signs once it is
	// durable (and, at Open, the latest head the log was found to hold), with the
	// verifier key and a consistency proof from the head it handed over before: the
	// way out to a keeper of heads elsewhere (serve publishes them as
	// evidence:checkpoint events, which the control plane keeps). It runs under the
	// writers' lock and must not block for long.
	OnCheckpoint func(Checkpoint)
}

// Log is an open evidence log. It is safe for concurrent use.
type Log struct {
	opts    Config
	f       *os.File
	cpf     *os.File
	witness *os.File
	keys    keys
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
	queue    []queued
	enqueued uint64
	done     uint64
	flushing bool
	closed   bool
	err      error

	// known is size, readable without being the leader: Err compares it with the
	// file's size to see writes (or a truncation) by anyone else.
	known atomic.Int64

	// Owned by the current leader (flushing == true) or by Close.
	size     int64
	n        int64
	lastHash string
	hashes   []tlog.Hash
	// lastCP is the size of the last head this log signed or found signed at Open: the
	// start of the next head's consistency proof.
	lastCP int64
	// legacy is how many leading records may lack a MAC: records written before
	// records had one, which a signed checkpoint covers instead (only at Open).
	legacy int64
	mac    hash.Hash
	buf    bytes.Buffer
}

// Open opens (creating when needed) the log in opts.Dir, and the signing key.
func Open(opts Config) (*Log, error) {
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
	var (
		head, below tlog.Tree
		headCP      Checkpoint
	)
	err = l.locked(func() error {
		var err error
		if l.keys, err = loadOrCreateKey(opts.Dir); err != nil {
			return err
		}
		l.mac = newMAC(l.keys)
		if headCP, head, below, err = highestHead(filepath.Join(opts.Dir, CheckpointsFile), l.keys.verifier); err != nil {
			return err
		}
		// Records from before records had a MAC are authentic when a signed head covers
		// them; every later one must carry its MAC.
		l.legacy = head.N
		if err := l.catchUp(); err != nil {
			return err
		}
		l.legacy = 0
		if err := l.holds(head, "local"); err != nil {
			return err
		}
		if opts.Witness != "" {
			_, wh, _, err := highestHead(opts.Witness, l.keys.verifier)
			if err != nil {
				return err
			}
			if err := l.holds(wh, "witness"); err != nil {
				return err
			}
		}
		l.lastCP = head.N
		if opts.OnCheckpoint != nil && below.N > 0 {
			proof, err := tlog.ProveTree(head.N, below.N, tlog.HashReaderFunc(l.readHashes))
			if err != nil {
				return err
			}
			headCP.PrevN, headCP.Proof = below.N, hexes(proof)
		}
		return nil
	})
	if opts.CheckpointIdle == 0 {
		opts.CheckpointIdle = DefaultCheckpointIdle
	}
	l.opts.CheckpointIdle = opts.CheckpointIdle
	if errors.Is(err, ErrTampered) {
		// The log holds lines nobody with the key wrote, or less than a signed head says
		// it held: it opens refusing every receipt (so the kernel refuses every call),
		// and never signs over what it found.
		l.err = fmt.Errorf("evidence: open %s: %w", opts.Dir, err)
		return l, nil
	}
	if err != nil {
		l.closeFiles()
		return nil, fmt.Errorf("evidence: open %s: %w", opts.Dir, err)
	}
	if opts.OnCheckpoint != nil && head.N > 0 {
		// Hand over the head the log holds now, linked to the head below it: the final
		// checkpoint of the last run may have been signed after its keeper stopped
		// listening.
		headCP.Verifier = l.keys.vkey
		opts.OnCheckpoint(headCP)
	}
	return l, nil
}

// holds checks that the log holds the signed head: at least head.N records, the first
// head.N of which hash to its root. A log that holds fewer was rewound.
func (l *Log) holds(head tlog.Tree, source string) error {
	if head.N == 0 {
		return nil
	}
	if head.N > l.n {
		return fmt.Errorf("%w: a signed %s checkpoint covers %d records but the log holds %d: it was truncated or rewound", ErrTampered, source, head.N, l.n)
	}
	root, err := tlog.TreeHash(head.N, tlog.HashReaderFunc(l.readHashes))
	if err != nil {
		return err
	}
	if root != head.Hash {
		return fmt.Errorf("%w: records 1..%d no longer match the signed %s checkpoint", ErrTampered, head.N, source)
	}
	return nil
}

func (l *Log) closeFiles() error {
	err := errors.Join(l.f.Close(), l.cpf.Close())
	if l.witness != nil {
		err = errors.Join(err, l.witness.Close())
	}
	return err
}

// Append records r: it assigns r.Seq, r.PrevHash, r.MAC and r.Hash and returns once
// the record is written (and synced in SyncGroup mode), sharing the write with
// concurrent callers. A failed log refuses it.
func (l *Log) Append(r *Receipt) error { return l.append(r, false) }

// AppendAdmitted is Append for the receipt of a call that was admitted while the log
// was healthy (Err returned nil before it ran): the call has run, and may have
// committed, so its receipt must not be lost to tampering found since — by this call's
// own append, another call's, or the quiet-period checkpoint. When the log has failed
// because it was tampered with, the receipt is still written, after whatever the file
// holds now, continuing the log's own chain, under a freshly signed head; the log goes
// on refusing every call. A log that failed otherwise (a write error, its file
// replaced or removed) refuses it like Append.
func (l *Log) AppendAdmitted(r *Receipt) error { return l.append(r, true) }

// queued is one receipt waiting for the leader's write.
type queued struct {
	r        *Receipt
	admitted bool
}

// writable reports whether a receipt may still be written by a log in its current
// state. l.mu is held.
func (l *Log) writable(admitted bool) bool {
	return l.err == nil || admitted && errors.Is(l.err, ErrTampered)
}

func (l *Log) append(r *Receipt, admitted bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return errors.New("evidence: log is closed")
	}
	if !l.writable(admitted) {
		return l.err
	}
	r.Hash = ""
	l.queue = append(l.queue, queued{r, admitted})
	l.enqueued++
	mine := l.enqueued
	for l.done < mine {
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
		queue := l.queue
		l.queue = nil
		// A log that failed meanwhile writes only what it still may.
		batch := make([]*Receipt, 0, len(queue))
		for _, q := range queue {
			if l.writable(q.admitted) {
				batch = append(batch, q.r)
			}
		}
		l.mu.Unlock()
		var (
			wrote bool
			err   error
		)
		if len(batch) > 0 {
			wrote, err = l.commit(batch)
		}
		l.mu.Lock()
		l.flushing = false
		l.done += uint64(len(queue))
		if err != nil && l.err == nil {
			l.err = fmt.Errorf("evidence: %w", err)
		}
		if err == nil && l.err == nil {
			l.armIdleLocked()
		}
		l.cond.Broadcast()
		if !wrote {
			// This batch (ours among it, perhaps) is not on record.
			for _, r := range batch {
				r.Hash, r.MAC = "", ""
			}
		}
	}
	if r.Hash == "" {
		if l.err != nil {
			return l.err
		}
		return errors.New("evidence: receipt not written")
	}
	// Written and synced: a log that failed while writing it (tampering found) refuses
	// the next call, not this one's record.
	return nil
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
				// A failure here shows again at the next call or Close.
				_ = l.Checkpoint()
			}
		})
		return
	}
	l.idle.Reset(l.opts.CheckpointIdle)
}

// Checkpoint signs the current tree head now (if it covers new records).
func (l *Log) Checkpoint() error {
	return l.exclusive(func() error {
		if err := l.foldIn(); err != nil {
			return err
		}
		return l.checkpointLocked()
	})
}

// exclusive runs fn as the log's only writer, in this process (the leader's role)
// and across processes (the file lock). An error fails the log.
func (l *Log) exclusive(fn func() error) error {
	l.mu.Lock()
	for l.flushing {
		l.cond.Wait()
	}
	if l.err != nil {
		err := l.err
		l.mu.Unlock()
		return err
	}
	l.flushing = true
	l.mu.Unlock()
	err := l.locked(fn)
	l.mu.Lock()
	l.flushing = false
	if err != nil && l.err == nil {
		l.err = fmt.Errorf("evidence: %w", err)
	}
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

// Err reports why the log can take no more receipts (closed, a failed write or sync,
// its files replaced, removed or truncated under it, or lines in it that nobody with
// the key wrote), or nil while it is healthy. The kernel asks before every call, so
// that nothing runs that could not be recorded. It stats the log's two paths (a few
// microseconds, as before); when the receipts file's size is not what this log last
// wrote or read, it first folds in the new lines under the writers' lock —
// checking each one's MAC and place in the chain — so a forged or rewound log is
// refused before the call runs, not after.
func (l *Log) Err() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return errors.New("evidence: log is closed")
	}
	var size int64
	if l.err == nil {
		var err error
		if size, err = l.intact(); err != nil {
			l.err = err
		}
	}
	err := l.err
	l.mu.Unlock()
	if err != nil {
		return err
	}
	if size == l.known.Load() {
		return nil
	}
	if err := l.exclusive(l.foldIn); err != nil {
		return l.errOr(err)
	}
	return nil
}

func (l *Log) errOr(err error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	return err
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
// file nobody can read again: every later receipt silently lost. It returns the size of
// receipts.jsonl, from the same stat.
func (l *Log) intact() (int64, error) {
	var size int64
	for i, name := range []string{ReceiptsFile, CheckpointsFile} {
		var st unix.Stat_t
		if err := unix.Stat(filepath.Join(l.opts.Dir, name), &st); err != nil {
			return 0, fmt.Errorf("evidence: %s was removed under the running log: %w", name, err)
		}
		if (fileID{uint64(st.Dev), st.Ino}) != l.ids[i] {
			return 0, fmt.Errorf("evidence: %s was replaced under the running log", name)
		}
		if i == 0 {
			size = st.Size
		}
	}
	return size, nil
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
//
// The calls of batch have already run: their receipts are written even when the
// catch-up finds the log tampered with. They continue this log's own chain (never a
// forged line's), and the head this log can vouch for — its own records and the
// authenticated ones it folded in — is signed at once, so a rewind under it shows
// against that head and the witness. Then the log fails, and the kernel refuses calls.
func (l *Log) commit(batch []*Receipt) (wrote bool, err error) {
	err = l.locked(func() error {
		tampered := l.catchUp()
		if tampered != nil && !errors.Is(tampered, ErrTampered) {
			return tampered
		}
		l.buf.Reset()
		for _, r := range batch {
			r.Seq = l.n + 1
			r.PrevHash = l.lastHash
			r.Hash, r.MAC = "", ""
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
			r.MAC = recordMAC(l.mac, h)
			l.buf.Write(content[:len(content)-1])
			l.buf.WriteString(`,"mac":"`)
			l.buf.WriteString(r.MAC)
			l.buf.WriteString(`","hash":"`)
			l.buf.WriteString(r.Hash)
			l.buf.WriteString("\"}\n")
			l.n++
			l.lastHash = r.Hash
		}
		if _, err := l.f.Write(l.buf.Bytes()); err != nil {
			return err
		}
		l.size += int64(l.buf.Len())
		l.known.Store(l.size)
		if l.opts.Sync == SyncGroup || tampered != nil {
			if err := unix.Fdatasync(int(l.f.Fd())); err != nil {
				return errors.Join(tampered, fmt.Errorf("sync: %w", err))
			}
		}
		wrote = true
		if tampered != nil {
			return errors.Join(tampered, l.checkpointLocked())
		}
		if l.n/int64(l.opts.CheckpointEvery) > l.lastCP/int64(l.opts.CheckpointEvery) {
			return l.checkpointLocked()
		}
		return nil
	})
	return wrote, err
}

// foldIn catches up under the lock; on tampering it signs the head this log can vouch
// for, so the damage is on record in the checkpoints and the witness, and returns the
// error that fails the log. It never signs over a line it could not authenticate.
func (l *Log) foldIn() error {
	err := l.catchUp()
	if errors.Is(err, ErrTampered) {
		return errors.Join(err, l.checkpointLocked())
	}
	return err
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
	reader := tlog.HashReaderFunc(l.readHashes)
	root, err := tlog.TreeHash(l.n, reader)
	if err != nil {
		return err
	}
	signed, err := note.Sign(&note.Note{Text: checkpointText(l.n, root)}, l.keys.signer)
	if err != nil {
		return fmt.Errorf("sign checkpoint: %w", err)
	}
	cp := Checkpoint{N: l.n, Root: hex.EncodeToString(root[:]), Note: string(signed)}
	line, err := json.Marshal(cp)
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
	if l.opts.OnCheckpoint != nil {
		cp.Verifier = l.keys.vkey
		if l.lastCP > 0 && l.lastCP < l.n {
			proof, err := tlog.ProveTree(l.n, l.lastCP, reader)
			if err != nil {
				return fmt.Errorf("consistency proof: %w", err)
			}
			cp.PrevN, cp.Proof = l.lastCP, hexes(proof)
		}
		l.opts.OnCheckpoint(cp)
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

// catchUp folds the records appended by other writers (or present at Open) into the
// tree. It runs under the writers' lock. Each must be the next record of the chain
// (seq and prev_hash) and carry a valid MAC under the log's key: a sibling process of
// the workspace holds that key; a line without it was forged, and the catch-up stops
// there with an error wrapping ErrTampered, so nothing after it is ever signed. A file
// shorter than what this log already read was truncated or rewound (ErrTampered too).
// A line that is not a receipt at all (a write a crash tore) is skipped, as before: it
// carries no record, Verify reports it as malformed. A last line without its newline
// can only be torn, since no writer is writing while the lock is held: it is ended, so
// the next record starts on a line of its own.
func (l *Log) catchUp() error {
	defer func() { l.known.Store(l.size) }()
	st, err := l.f.Stat()
	if err != nil {
		return err
	}
	if st.Size() == l.size {
		return nil
	}
	if st.Size() < l.size {
		return fmt.Errorf("%w: %s was truncated under the running log (%d bytes, %d expected)", ErrTampered, ReceiptsFile, st.Size(), l.size)
	}
	r := bufio.NewReader(io.NewSectionReader(l.f, l.size, st.Size()-l.size))
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] != '\n' && err == io.EOF {
			if _, werr := l.f.Write([]byte("\n")); werr != nil {
				return werr
			}
			l.size += int64(len(line)) + 1
			return nil
		}
		if len(line) > 0 {
			if ferr := l.fold(bytes.TrimSpace(line)); ferr != nil {
				return ferr
			}
			l.size += int64(len(line))
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// fold adds one stored line to the tree, or says why it is no record of this log.
func (l *Log) fold(line []byte) error {
	if len(line) == 0 {
		return nil
	}
	content, hash, mac, err := splitLine(line)
	var head struct {
		Seq      int64  `json:"seq"`
		PrevHash string `json:"prev_hash"`
	}
	if err != nil || json.Unmarshal(content, &head) != nil {
		// Torn or foreign: no record, and not folded in.
		return nil
	}
	leaf := tlog.RecordHash(content)
	// The MAC is over the leaf recomputed from the content, so an edited line fails it
	// whatever its recorded hash says.
	switch {
	case mac == "" && l.n < l.legacy:
		// Written before records had a MAC; the signed head covering it is checked
		// once the catch-up is done.
	case !macOK(l.mac, leaf, mac):
		return fmt.Errorf("%w: record %d (at byte %d of %s) was not written with the log's key (no valid MAC): forged", ErrTampered, head.Seq, l.size, ReceiptsFile)
	}
	if head.Seq != l.n+1 || head.PrevHash != l.lastHash {
		return fmt.Errorf("%w: record %d (at byte %d of %s) is not the next record of the chain (record %d): copied or replayed", ErrTampered, head.Seq, l.size, ReceiptsFile, l.n+1)
	}
	stored, err := tlog.StoredHashesForRecordHash(l.n, leaf, tlog.HashReaderFunc(l.readHashes))
	if err != nil {
		return err
	}
	l.hashes = append(l.hashes, stored...)
	l.n++
	l.lastHash = hash
	return nil
}

// contentOf turns a marshalled receipt with an empty hash and MAC into the hashed
// content: the line without its trailing ,"hash":"" member.
func contentOf(line []byte) []byte {
	const tail = `,"hash":""}`
	out := line[:len(line)-len(tail)]
	return append(out, '}')
}

// splitLine returns a stored line's hashed content, its recorded hash and its MAC (""
// for a line written before records had one). A line ends ,"mac":"…","hash":"…"}.
func splitLine(line []byte) (content []byte, hash, mac string, err error) {
	const key, macKey = `,"hash":"`, `,"mac":"`
	i := bytes.LastIndex(line, []byte(key))
	if i < 0 || !bytes.HasSuffix(line, []byte(`"}`)) || i+len(key) > len(line)-2 {
		return nil, "", "", errors.New("no trailing hash member")
	}
	hash = string(line[i+len(key) : len(line)-2])
	rest := line[:i]
	if j := bytes.LastIndex(rest, []byte(macKey)); j >= 0 && bytes.HasSuffix(rest, []byte(`"`)) &&
		j+len(macKey) <= len(rest)-1 && bytes.IndexByte(rest[j+len(macKey):len(rest)-1], '"') < 0 {
		mac = string(rest[j+len(macKey) : len(rest)-1])
		rest = rest[:j]
	}
	content = append(append([]byte(nil), rest...), '}')
	return content, hash, mac, nil
}

// checkpointOrigin is the first line of every signed checkpoint note.
const checkpointOrigin = "cmdbridge evidence log"

func checkpointText(n int64, root tlog.Hash) string {
	return checkpointOrigin + "\n" + strconv.FormatInt(n, 10) + "\n" + hex.EncodeToString(root[:]) + "\n"
}

// readCheckpoints reads a file of checkpoint lines (checkpoints.jsonl, a witness file,
// a control plane's export); a missing file has none, and a line that does not parse
// is kept with N -1 (it fails every check).
func readCheckpoints(path string) ([]Checkpoint, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Checkpoint
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var cp Checkpoint
		if err := json.Unmarshal([]byte(line), &cp); err != nil {
			cp = Checkpoint{N: -1}
		}
		out = append(out, cp)
	}
	return out, nil
}

// highestHead is the largest head of path whose signature verifies (zero when none
// does): what the log must hold at least. below is the largest verified head smaller
// than it (zero when none), the start of its consistency proof when it is published.
// Heads are tried from the largest down, so a long file costs two signature checks,
// not one per line.
func highestHead(path string, v note.Verifier) (best Checkpoint, bestTree, below tlog.Tree, err error) {
	cps, err := readCheckpoints(path)
	if err != nil {
		return Checkpoint{}, tlog.Tree{}, tlog.Tree{}, err
	}
	sort.SliceStable(cps, func(i, j int) bool { return cps[i].N > cps[j].N })
	for _, cp := range cps {
		if cp.N <= below.N || (bestTree.N > 0 && cp.N >= bestTree.N) {
			continue
		}
		t, err := cp.Tree(v)
		switch {
		case err != nil:
		case bestTree.N == 0:
			best, bestTree = cp, t
		default:
			return best, bestTree, t, nil
		}
	}
	return best, bestTree, below, nil
}

// loadOrCreateKey reads the signer key, creating the key pair on first use. It runs under
// the writers' lock, so two processes never create two keys.
func loadOrCreateKey(dir string) (keys, error) {
	path := filepath.Join(dir, SigningKeyFile)
	skey, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		s, v, gerr := note.GenerateKey(rand.Reader, KeyName)
		if gerr != nil {
			return keys{}, gerr
		}
		if err := os.WriteFile(filepath.Join(dir, VerifierKeyFile), []byte(v+"\n"), 0o644); err != nil {
			return keys{}, err
		}
		if err := os.WriteFile(path, []byte(s+"\n"), 0o600); err != nil {
			return keys{}, err
		}
		skey = []byte(s)
	} else if err != nil {
		return keys{}, err
	}
	return keysOf(string(skey))
}
