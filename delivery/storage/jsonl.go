package storage

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/rogpeppe/go-internal/lockedfile"

	"github.com/cmdbridge/cmdbridge/internal/failpoint"
)

// Line is one non-blank line of a JSONL file with its 1-based line number.
type Line struct {
	N   int
	Raw []byte
}

// LineError is a line that did not parse or validate; it is skipped, never rewritten away
// by a reader.
type LineError struct {
	N      int
	Reason string
}

// Warning renders the line error as "<file> line <k>: <reason>".
func (e LineError) Warning(file string) string {
	return fmt.Sprintf("%s line %d: %s", file, e.N, e.Reason)
}

// MarshalRecord encodes v as one compact JSON line (no HTML escaping) ending in "\n".
// Struct field order is the key order.
func MarshalRecord(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// AppendJSONL appends records to path, one compact line each, with a single write on an
// O_APPEND descriptor while holding an exclusive flock on the file, so concurrent appenders
// (threads or processes) never interleave and never write into a file a rewrite replaced.
// Parent directories are created.
func AppendJSONL(path string, records ...any) error {
	return appendJSONL(path, true, records...)
}

// KeepJSONL is [AppendJSONL] outside the run's write journal: for a record of the run
// itself (gate telemetry) that a failed run keeps, while its other writes roll back.
func KeepJSONL(path string, records ...any) error {
	return appendJSONL(path, false, records...)
}

// encodeLines is records as JSONL, one MarshalRecord line each.
func encodeLines(path string, records []any) (*bytes.Buffer, error) {
	var buf bytes.Buffer
	for _, r := range records {
		line, err := MarshalRecord(r)
		if err != nil {
			return nil, fmt.Errorf("encode record for %s: %w", filepath.Base(path), err)
		}
		buf.Write(line)
	}
	return &buf, nil
}

func appendJSONL(path string, journal bool, records ...any) error {
	buf, err := encodeLines(path, records)
	if err != nil {
		return err
	}
	if !journal {
		return appendLines(path, buf.Bytes())
	}
	return AppendLines(path, buf.Bytes())
}

// AppendLines appends already-encoded lines (each ending in "\n") with one write, as
// AppendJSONL does.
func AppendLines(path string, data []byte) error {
	if len(data) == 0 {
		return nil
	}
	if err := JournalAppend(path); err != nil {
		return err
	}
	if err := appendLines(path, data); err != nil {
		return err
	}
	failpoint.Hit(failpoint.Append)
	return nil
}

func appendLines(path string, data []byte) error {
	if len(data) == 0 {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	f, err := OpenLocked(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE)
	if err != nil {
		return err
	}
	defer f.Close()
	// A file that does not end in a newline (a crash mid-line by another tool) would glue
	// our first record to its garbage; start on a fresh line instead.
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		if last, err := LastByte(path); err == nil && last != '\n' {
			data = append([]byte{'\n'}, data...)
		}
	}
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("append to %s: %w", path, err)
	}
	return nil
}

// LockPath takes an exclusive lock on path (created when missing, parent directories
// included) and returns the function that releases it. The lock is a flock (lockedfile),
// so it dies with the process that holds it: a crash never leaves it held. Removing path
// while holding the lock is safe: a waiter that then gets the lock on the removed file
// notices and locks the new one. It blocks while another holder has it.
func LockPath(path string) (unlock func() error, err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	f, err := OpenLocked(path, os.O_RDWR|os.O_CREATE)
	if err != nil {
		return nil, err
	}
	return f.Close, nil
}

// OpenLocked opens path and takes an exclusive lock on it (lockedfile: flock, retried on
// EINTR, released by Close). If a rewrite replaced the file between open and lock, it
// reopens the new file.
func OpenLocked(path string, flag int) (*lockedfile.File, error) {
	// Read-only opens take a shared lock in lockedfile; every caller here needs the
	// exclusive one, so ask for write access whatever flag says.
	flag = flag&^(os.O_RDONLY|os.O_WRONLY|os.O_RDWR) | os.O_RDWR
	for {
		f, err := lockedfile.OpenFile(path, flag, 0o644)
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
		held, err1 := f.Stat()
		cur, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, cur) {
			return f, nil
		}
		f.Close() // releases the lock
		if flag&os.O_CREATE == 0 && errors.Is(err2, fs.ErrNotExist) {
			return nil, fmt.Errorf("open %s: %w", path, err2)
		}
	}
}

// LastByte is the last byte of the file at path, a newline for an empty file.
func LastByte(path string) (byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	b := make([]byte, 1)
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return '\n', err
	}
	if _, err := f.ReadAt(b, fi.Size()-1); err != nil {
		return 0, err
	}
	return b[0], nil
}

// ReadLines returns the non-blank lines of a JSONL file with their line numbers. A missing
// file has no lines.
func ReadLines(path string) ([]Line, error) {
	data, err := os.ReadFile(path)
	if err == nil {
		data = WholeLines(data, func() ([]byte, error) { return os.ReadFile(path) })
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	lines, err := SplitLines(data)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return lines, nil
}

// WholeLines is data, a read of a JSONL file, or what readAgain reads a millisecond
// later while data ends mid-line and the file changes between reads. Readers take no
// lock, and an append that crosses a page boundary is visible page by page: a read can
// catch one half way, with part of its line at the end. The writer finishes within
// microseconds, so the next read has the whole line; a file that still ends mid-line
// and has not changed ends that way (a writer crashed mid-line) and is kept as it is,
// as is data when a read again fails.
func WholeLines(data []byte, readAgain func() ([]byte, error)) []byte {
	for i := 0; i < wholeTries && len(data) > 0 && data[len(data)-1] != '\n'; i++ {
		time.Sleep(time.Millisecond)
		again, err := readAgain()
		if err != nil || bytes.Equal(again, data) {
			break
		}
		data = again
	}
	return data
}

// wholeTries bounds the reads again of [WholeLines]: a file that keeps changing without
// ending its last line (a writer appending without newlines) is kept as it is then.
const wholeTries = 5

// SplitLines returns the non-blank lines of JSONL content with their line numbers, as
// ReadLines reads a file (a warm cache parses the bytes it already holds).
func SplitLines(data []byte) ([]Line, error) {
	var lines []Line
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 64*1024*1024)
	for n := 1; sc.Scan(); n++ {
		raw := bytes.TrimRight(sc.Bytes(), "\r")
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		lines = append(lines, Line{N: n, Raw: append([]byte(nil), raw...)})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return lines, nil
}

// ReadRecords decodes every non-blank line of path into a T. Lines that are not a JSON
// object of the right shape are returned as LineErrors and skipped. validate (may be nil)
// adds domain checks; a non-nil error skips the line with its message as the reason.
func ReadRecords[T any](path string, validate func(*T) error) ([]T, []LineError, error) {
	lines, err := ReadLines(path)
	if err != nil {
		return nil, nil, err
	}
	out, bad := DecodeRecords(lines, validate)
	return out, bad, nil
}

// DecodeRecords is ReadRecords of lines already read (ReadLines, or SplitLines of the
// bytes a warm cache holds).
func DecodeRecords[T any](lines []Line, validate func(*T) error) ([]T, []LineError) {
	out := make([]T, 0, len(lines))
	var bad []LineError
	for _, l := range lines {
		var v T
		if err := json.Unmarshal(l.Raw, &v); err != nil {
			bad = append(bad, LineError{N: l.N, Reason: JSONReason(err)})
			continue
		}
		if validate != nil {
			if err := validate(&v); err != nil {
				bad = append(bad, LineError{N: l.N, Reason: err.Error()})
				continue
			}
		}
		out = append(out, v)
	}
	return out, bad
}

// JSONReason is how a line that does not decode is reported: the JSON syntax error, or
// the field of the wrong type.
func JSONReason(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return "invalid JSON: " + se.Error()
	case errors.As(err, &te):
		if te.Field != "" {
			return fmt.Sprintf("field %s: expected %s", te.Field, te.Type)
		}
		return "not a JSON object"
	}
	return "invalid JSON: " + err.Error()
}

// RewriteJSONL atomically replaces path with the given records, holding the append lock
// so no concurrent append is lost. Only the commands the spec lists may rewrite a log.
func RewriteJSONL(path string, records ...any) error {
	buf, err := encodeLines(path, records)
	if err != nil {
		return err
	}
	return RewriteLines(path, buf.Bytes())
}

// RewriteLines atomically replaces path with data under the append lock.
func RewriteLines(path string, data []byte) error {
	if err := JournalWrite(path); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	f, err := OpenLocked(path, os.O_RDONLY|os.O_CREATE)
	if err != nil {
		return err
	}
	defer f.Close()
	return WriteFileAtomic(path, data, 0o644)
}
