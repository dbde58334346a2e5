package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// File names inside Config.Dir.
const (
	outboxName = "outbox.jsonl"
	seqName    = "stream.seq"
	lockName   = "lock"
)

// record is one line of the outbox log. A "put" commits a durable event with its stream
// id; an "ack" retires events by id.
type record struct {
	Op     string   `json:"op"`
	Stream uint64   `json:"stream,omitempty"`
	Event  *Event   `json:"event,omitempty"`
	IDs    []string `json:"ids,omitempty"`
}

// stored is a pending durable event and the stream id it was first published under.
type stored struct {
	stream uint64
	event  Event
}

// outbox is the append-only JSONL log of durable events. Its caller serialises access.
type outbox struct {
	dir   string
	f     *os.File
	lock  *os.File
	acked int // ack records plus retired puts in the file: compaction garbage
}

// openOutbox locks dir, reads the log and returns it with the pending events in file
// (= stream) order. A torn last line, the trace of a crash mid-append, is cut off: its
// Publish never returned, so nobody was promised it.
func openOutbox(dir string) (*outbox, []stored, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("outbox %s: %w", dir, err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("outbox lock: %w", err)
	}
	// Fail fast rather than wait: two hubs on one outbox would interleave appends.
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		holder := lockHolder(lock)
		lock.Close()
		return nil, nil, fmt.Errorf("the workspace's event outbox %s is in use by another server%s: stop that one first, or serve another workspace (%w)", dir, holder, err)
	}
	// The holder's pid, for the message a second server prints.
	if err := lock.Truncate(0); err == nil {
		_, _ = lock.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	f, err := os.OpenFile(filepath.Join(dir, outboxName), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		lock.Close()
		return nil, nil, fmt.Errorf("outbox: %w", err)
	}
	o := &outbox{dir: dir, f: f, lock: lock}
	pending, err := o.load()
	if err != nil {
		o.close()
		return nil, nil, err
	}
	return o, pending, nil
}

func (o *outbox) load() ([]stored, error) {
	data, err := io.ReadAll(o.f)
	if err != nil {
		return nil, fmt.Errorf("outbox read: %w", err)
	}
	var (
		order []string
		byID  = map[string]stored{}
		good  int64
		line  int
	)
	for len(data[good:]) > 0 {
		rest := data[good:]
		nl := bytes.IndexByte(rest, '\n')
		line++
		if nl < 0 {
			break // torn tail: every append ends with a newline
		}
		var r record
		if err := json.Unmarshal(rest[:nl], &r); err != nil {
			if len(bytes.TrimSpace(rest[nl+1:])) == 0 {
				break // torn tail
			}
			return nil, fmt.Errorf("outbox line %d: corrupt record: %w", line, err)
		}
		good += int64(nl + 1)
		switch r.Op {
		case "put":
			if r.Event == nil {
				return nil, fmt.Errorf("outbox line %d: put without event", line)
			}
			if _, dup := byID[r.Event.EventID]; !dup {
				order = append(order, r.Event.EventID)
			}
			byID[r.Event.EventID] = stored{stream: r.Stream, event: *r.Event}
		case "ack":
			o.acked++
			for _, id := range r.IDs {
				if _, ok := byID[id]; ok {
					delete(byID, id)
					o.acked++
				}
			}
		default:
			return nil, fmt.Errorf("outbox line %d: unknown op %q", line, r.Op)
		}
	}
	if good < int64(len(data)) {
		if err := o.f.Truncate(good); err != nil {
			return nil, fmt.Errorf("outbox: cut torn tail: %w", err)
		}
	}
	if _, err := o.f.Seek(good, io.SeekStart); err != nil {
		return nil, fmt.Errorf("outbox seek: %w", err)
	}
	pending := make([]stored, 0, len(byID))
	for _, id := range order {
		if s, ok := byID[id]; ok {
			pending = append(pending, s)
		}
	}
	return pending, nil
}

// append writes records and fsyncs: when it returns nil they survive a crash.
func (o *outbox) append(rs ...record) error {
	var buf bytes.Buffer
	for _, r := range rs {
		b, err := encodeCompact(r)
		if err != nil {
			return fmt.Errorf("outbox encode: %w", err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	end, err := o.f.Seek(0, io.SeekCurrent)
	if err != nil {
		return fmt.Errorf("outbox append: %w", err)
	}
	if _, err := o.f.Write(buf.Bytes()); err != nil {
		return o.rollback(end, fmt.Errorf("outbox append: %w", err))
	}
	if err := o.f.Sync(); err != nil {
		return o.rollback(end, fmt.Errorf("outbox fsync: %w", err))
	}
	return nil
}

// rollback cuts a failed append off, so a half-written record never sits in front of
// later ones (which would make the log unreadable rather than merely torn).
func (o *outbox) rollback(end int64, cause error) error {
	if err := o.f.Truncate(end); err != nil {
		return errors.Join(cause, fmt.Errorf("outbox rollback: %w", err))
	}
	if _, err := o.f.Seek(end, io.SeekStart); err != nil {
		return errors.Join(cause, fmt.Errorf("outbox rollback: %w", err))
	}
	return cause
}

// compact rewrites the log with only the pending puts, atomically: a crash leaves
// either the old log or the new one.
func (o *outbox) compact(pending []stored) error {
	rs := make([]record, len(pending))
	for i := range pending {
		rs[i] = record{Op: "put", Stream: pending[i].stream, Event: &pending[i].event}
	}
	var buf bytes.Buffer
	for _, r := range rs {
		b, err := encodeCompact(r)
		if err != nil {
			return fmt.Errorf("outbox compact: %w", err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	path := filepath.Join(o.dir, outboxName)
	if err := writeFileSync(path, buf.Bytes()); err != nil {
		return fmt.Errorf("outbox compact: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0o644)
	if err != nil {
		return fmt.Errorf("outbox compact reopen: %w", err)
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return fmt.Errorf("outbox compact seek: %w", err)
	}
	o.f.Close()
	o.f = f
	o.acked = 0
	return nil
}

func (o *outbox) close() error {
	err := o.f.Close()
	// Closing the descriptor releases the flock.
	if cerr := o.lock.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeFileSync replaces path with data through a synced temporary file and a rename,
// then syncs the directory so the rename itself is durable.
func writeFileSync(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// seqState is the stream sequence file: "clean N" after a Close (N is the last id
// used), "reserved N" while running (no id above N has been used).
type seqState struct {
	clean bool
	n     uint64
}

func readSeq(dir string) (seqState, error) {
	b, err := os.ReadFile(filepath.Join(dir, seqName))
	if errors.Is(err, os.ErrNotExist) {
		return seqState{clean: true}, nil
	}
	if err != nil {
		return seqState{}, fmt.Errorf("stream seq: %w", err)
	}
	word, num, ok := strings.Cut(strings.TrimSpace(string(b)), " ")
	n, perr := strconv.ParseUint(num, 10, 64)
	if !ok || perr != nil || (word != "clean" && word != "reserved") {
		return seqState{}, fmt.Errorf("stream seq: malformed %q", b)
	}
	return seqState{clean: word == "clean", n: n}, nil
}

func writeSeq(dir string, s seqState) error {
	word := "reserved"
	if s.clean {
		word = "clean"
	}
	if err := writeFileSync(filepath.Join(dir, seqName), []byte(word+" "+strconv.FormatUint(s.n, 10)+"\n")); err != nil {
		return fmt.Errorf("stream seq: %w", err)
	}
	return nil
}

// lockHolder names the process that holds the outbox lock, from the pid it wrote into
// the lock file: " (pid N: its command line)", or "" when that cannot be told.
func lockHolder(lock *os.File) string {
	buf := make([]byte, 32)
	n, _ := lock.ReadAt(buf, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	if err != nil || pid <= 0 {
		return ""
	}
	cmdline, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	if err != nil || len(cmdline) == 0 {
		return fmt.Sprintf(" (pid %d)", pid)
	}
	// The program and its subcommand words only: flags may carry secrets (a NATS URL).
	var words []string
	for i, w := range strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00") {
		if i == 0 {
			w = filepath.Base(w)
		} else if strings.HasPrefix(w, "-") || len(words) == 4 {
			break
		}
		words = append(words, w)
	}
	return fmt.Sprintf(" (pid %d: %s)", pid, strings.Join(words, " "))
}
