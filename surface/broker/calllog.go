package broker

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// callLogName is the idempotency log's file inside Config.StateDir.
const callLogName = "calls.jsonl"

// callRecord is one line of the idempotency log. "begin" is written, and fsynced,
// before the kernel runs the call; "done" after, with the receipt id (the kernel's
// call id) and the exact reply body.
type callRecord struct {
	Op     string `json:"op"`
	Key    string `json:"key"`
	Call   string `json:"call,omitempty"`
	CallID string `json:"call_id,omitempty"`
	// Output is the reply body byte for byte (a string, so that JSON re-encoding can
	// never change what a replay answers).
	Output string    `json:"output,omitempty"`
	At     time.Time `json:"at"`
}

// callEntry is what the log knows of one idempotency key.
type callEntry struct {
	call   string        // hash of tool, input and stdin
	callID string        // the receipt id, once done
	out    []byte        // the reply body, once done
	at     time.Time     // when it began
	done   chan struct{} // closed when the call of this life ends; nil for an earlier life's
	ended  bool          // done is closed
}

// verdict is what begin decides for a keyed call.
type verdict int

const (
	runIt    verdict = iota // first sight: the caller runs it and calls finish
	replay                  // done before: answer entry.out
	waitRun                 // running now: wait for entry.done, then ask again
	conflict                // the key was used for another call
	inDoubt                 // began in an earlier life and never finished
)

// callLog is the durable idempotency store of keyed write calls. Its methods are safe
// for concurrent use.
type callLog struct {
	mu        sync.Mutex
	f         *os.File
	path      string
	retention time.Duration
	appended  int // records appended since the last prune
	entries   map[string]*callEntry
}

// pruneEvery is how many appends pass between two prunes of expired keys: memory and
// the file stay bounded by what the retention keeps, at the cost of one rewrite per
// pruneEvery calls.
const pruneEvery = 4096

// openCallLog opens (or creates) the log in dir, locked against a second sidecar, and
// keeps the records younger than retention; older ones are compacted away, so the log
// answers redeliveries for retention and stays bounded.
func openCallLog(dir string, retention time.Duration, now time.Time) (*callLog, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("broker: call log: %w", err)
	}
	path := filepath.Join(dir, callLogName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("broker: call log: %w", err)
	}
	// One writer: two sidecars of one workspace would each think a key is new.
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("broker: call log %s is in use by another sidecar: %w", path, err)
	}
	l := &callLog{f: f, path: path, retention: retention, entries: map[string]*callEntry{}}
	data, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("broker: call log read: %w", err)
	}
	stale := false
	for len(data) > 0 {
		nl := bytes.IndexByte(data, '\n')
		if nl < 0 {
			stale = true // a torn last line: its write never returned, so nothing relied on it
			break
		}
		var r callRecord
		if err := json.Unmarshal(data[:nl], &r); err != nil {
			f.Close()
			return nil, fmt.Errorf("broker: call log %s: %w", path, err)
		}
		data = data[nl+1:]
		switch r.Op {
		case "begin":
			l.entries[r.Key] = &callEntry{call: r.Call, at: r.At}
		case "done":
			if e := l.entries[r.Key]; e != nil {
				e.callID, e.out = r.CallID, []byte(r.Output)
			}
		}
	}
	for k, e := range l.entries {
		if now.Sub(e.at) > retention {
			delete(l.entries, k)
			stale = true
		}
	}
	if stale {
		if err := l.rewrite(path); err != nil {
			f.Close()
			return nil, err
		}
	}
	return l, nil
}

// rewrite replaces the log with the kept entries (a synced temporary file, renamed).
func (l *callLog) rewrite(path string) error {
	var buf bytes.Buffer
	for k, e := range l.entries {
		for _, r := range []callRecord{{Op: "begin", Key: k, Call: e.call, At: e.at}, {Op: "done", Key: k, CallID: e.callID, Output: string(e.out), At: e.at}} {
			if r.Op == "done" && e.out == nil {
				continue
			}
			b, err := json.Marshal(r)
			if err != nil {
				return fmt.Errorf("broker: call log compact: %w", err)
			}
			buf.Write(b)
			buf.WriteByte('\n')
		}
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o600); err != nil {
		return fmt.Errorf("broker: call log compact: %w", err)
	}
	t, err := os.OpenFile(tmp, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("broker: call log compact: %w", err)
	}
	if err := t.Sync(); err != nil {
		t.Close()
		return fmt.Errorf("broker: call log compact: %w", err)
	}
	// The lock moves with the new file: take it before the rename makes it visible.
	if err := unix.Flock(int(t.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		t.Close()
		return fmt.Errorf("broker: call log compact lock: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Close()
		return fmt.Errorf("broker: call log compact: %w", err)
	}
	if _, err := t.Seek(0, io.SeekEnd); err != nil {
		t.Close()
		return fmt.Errorf("broker: call log compact: %w", err)
	}
	l.f.Close()
	l.f = t
	return nil
}

// callHash identifies a call's content, so a key reused for another call is refused
// rather than answered with the wrong result.
func callHash(subject, name string, input, stdin []byte) string {
	h := sha256.New()
	for _, part := range [][]byte{[]byte(subject), []byte(name), input, stdin} {
		fmt.Fprintf(h, "%d:", len(part))
		h.Write(part)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// begin decides what to do with a keyed call. For runIt the begin record is durable
// before it returns: whatever happens next, this key never runs again.
func (l *callLog) begin(key, call string, now time.Time) (verdict, *callEntry, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e, ok := l.entries[key]; ok {
		switch {
		case e.call != call:
			return conflict, e, nil
		case e.out != nil:
			return replay, e, nil
		case e.done != nil && !e.ended:
			return waitRun, e, nil
		default:
			return inDoubt, e, nil
		}
	}
	if l.f == nil {
		return 0, nil, errors.New("broker: call log closed")
	}
	if err := l.append(callRecord{Op: "begin", Key: key, Call: call, At: now.UTC()}); err != nil {
		return 0, nil, err
	}
	if l.appended >= pruneEvery {
		l.prune(now)
	}
	e := &callEntry{call: call, at: now, done: make(chan struct{})}
	l.entries[key] = e
	return runIt, e, nil
}

// finish records a call's reply and wakes its waiters. A failed write leaves the key
// begun-but-not-done: later redeliveries are answered in doubt, never re-run.
func (l *callLog) finish(key string, e *callEntry, callID string, out []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	e.ended = true
	defer close(e.done)
	var err error
	if l.f == nil {
		err = errors.New("broker: call log closed")
	} else {
		err = l.append(callRecord{Op: "done", Key: key, CallID: callID, Output: string(out), At: e.at.UTC()})
	}
	if err == nil {
		e.callID, e.out = callID, out
	}
	return err
}

// prune forgets finished keys older than the retention and rewrites the file without
// them. A key still running, or in doubt, is kept whatever its age. A failed rewrite
// leaves the old, complete file in place. l.mu is held.
func (l *callLog) prune(now time.Time) {
	l.appended = 0
	dropped := false
	for k, e := range l.entries {
		if now.Sub(e.at) > l.retention && e.out != nil {
			delete(l.entries, k)
			dropped = true
		}
	}
	if dropped {
		_ = l.rewrite(l.path) // on failure the log keeps its old records: larger, still right
	}
}

// append writes one record and fsyncs it. l.mu is held.
func (l *callLog) append(r callRecord) error {
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("broker: call log: %w", err)
	}
	if _, err := l.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("broker: call log write: %w", err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("broker: call log sync: %w", err)
	}
	l.appended++
	return nil
}

func (l *callLog) close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
