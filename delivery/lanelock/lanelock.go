package lanelock

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
)

// Lock is the content of a lock file, in its JSON key order.
type Lock struct {
	Lane      string `json:"lane"`
	WUID      string `json:"wuId"`
	Owner     string `json:"owner"`
	Timestamp string `json:"timestamp"`
	// Valid is false when the file could not be parsed or has no timestamp (always stale).
	Valid bool `json:"-"`
}

// Stale reports whether the lock is older than threshold at now (invalid locks are stale).
func (l *Lock) Stale(now time.Time, threshold time.Duration) bool {
	if !l.Valid {
		return true
	}
	ts, err := delivery.ParseTimestamp(l.Timestamp)
	if err != nil {
		return true
	}
	return now.Sub(ts) > threshold
}

// Rel is the root-relative path of a lane's lock file.
func Rel(lane string) string { return delivery.LockRel(lane) }

// Path is the absolute lock file of a lane under root.
func Path(root, lane string) string { return filepath.Join(root, filepath.FromSlash(Rel(lane))) }

// Parse reads lock file content, including the LumenFlow legacy format.
func Parse(data []byte) *Lock {
	var raw struct {
		Lane         *string          `json:"lane"`
		WUID         *string          `json:"wuId"`
		Owner        *string          `json:"owner"`
		Timestamp    *string          `json:"timestamp"`
		AgentSession *string          `json:"agentSession"`
		PID          *json.RawMessage `json:"pid"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return &Lock{}
	}
	l := &Lock{Valid: true}
	deref := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	l.Lane, l.WUID, l.Timestamp = deref(raw.Lane), deref(raw.WUID), deref(raw.Timestamp)
	switch {
	case raw.Owner != nil:
		l.Owner = *raw.Owner
	case raw.AgentSession != nil:
		l.Owner = *raw.AgentSession
	case raw.PID != nil && string(*raw.PID) != "null":
		l.Owner = "pid:" + strings.Trim(string(*raw.PID), `"`)
	}
	if l.Timestamp == "" {
		l.Valid = false
	}
	return l
}

// Read returns the lock of a lane, or nil when there is none.
func Read(root, lane string) (*Lock, error) { return readFile(Path(root, lane)) }

func readFile(path string) (*Lock, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("read lock %s: %w", filepath.Base(path), err)
	}
	return Parse(data), nil
}

// Result is the outcome of [Acquire].
type Result struct {
	Acquired    bool
	AlreadyHeld bool
	IsStale     bool
	// LockPath is the root-relative lock file.
	LockPath string
	// Holder is the lock as found when not acquired (or when already held); nil otherwise.
	Holder *Lock
	// Warnings are non-fatal problems (the takeover marker could not be removed).
	Warnings []string
}

// Acquire runs the §1.11 algorithm for (lane, wuID, owner) at now, treating locks older
// than staleAfter as stale.
func Acquire(root, lane, wuID, owner string, now time.Time, staleAfter time.Duration) (Result, error) {
	path := Path(root, lane)
	res := Result{LockPath: Rel(lane)}
	mine := Lock{Lane: lane, WUID: wuID, Owner: owner, Timestamp: delivery.Timestamp(now), Valid: true}
	// A failed run releases (or gives back) the lock it took.
	if err := storage.JournalWrite(path); err != nil {
		return res, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return res, fmt.Errorf("create locks dir: %w", err)
	}
	ok, err := create(path, mine)
	if err != nil {
		return res, err
	}
	if ok {
		res.Acquired = true
		return res, nil
	}
	cur, err := readFile(path)
	if err != nil {
		return res, err
	}
	if cur == nil { // released between our create and read: try once more
		if ok, err := create(path, mine); err != nil || ok {
			res.Acquired = ok
			return res, err
		}
		if cur, err = readFile(path); err != nil || cur == nil {
			return res, err
		}
	}
	if cur.Valid && cur.Owner == owner && cur.WUID == wuID {
		res.Acquired, res.AlreadyHeld, res.Holder = true, true, cur
		return res, nil
	}
	res.Holder = cur
	if !cur.Stale(now, staleAfter) {
		return res, nil
	}
	// The takeover is serialised by an exclusive flock on the marker, not by its
	// existence: a process that dies mid-takeover releases the lock with its descriptors,
	// and a marker file left behind by a crash (or by an older version that used O_EXCL)
	// is simply locked, used and removed by the next acquirer. A concurrent taker waits
	// here, then re-reads the lock below and finds it fresh.
	marker := path + ".takeover"
	unlock, err := storage.LockPath(marker)
	if err != nil {
		return res, fmt.Errorf("lock takeover marker: %w", err)
	}
	defer func() {
		// Removed while still locked; a waiter holding the old file notices and retries.
		if err := os.Remove(marker); err != nil && !errors.Is(err, fs.ErrNotExist) {
			res.Warnings = append(res.Warnings, fmt.Sprintf("could not remove %s: %v", filepath.Base(marker), err))
		}
		_ = unlock()
	}()
	again, err := readFile(path)
	if err != nil {
		return res, err
	}
	if again != nil && !again.Stale(now, staleAfter) {
		res.Holder = again
		return res, nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return res, fmt.Errorf("remove stale lock: %w", err)
	}
	ok, err = create(path, mine)
	if err != nil || !ok {
		if ok2, _ := readFile(path); ok2 != nil {
			res.Holder = ok2
		}
		return res, err
	}
	res.Acquired, res.IsStale = true, true
	return res, nil
}

// create writes the lock exclusively; false means the file already exists. The lock
// appears with its whole content or not at all: it is written to a temporary file and
// hard-linked into place (link fails when the name exists). Creating the lock file with
// O_EXCL and then writing it would let a concurrent reader see an empty, hence invalid,
// hence stale lock between the two steps and take it over: two winners.
func create(path string, l Lock) (bool, error) {
	data, err := storage.MarshalRecord(l)
	if err != nil {
		return false, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-lock-*")
	if err != nil {
		return false, fmt.Errorf("create lock: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return false, fmt.Errorf("write lock: %w", err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return false, fmt.Errorf("write lock: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return false, fmt.Errorf("write lock: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, nil
		}
		return false, fmt.Errorf("create lock: %w", err)
	}
	return true, nil
}

// Release reasons.
const (
	Released      = "released"
	NotFound      = "not_found"
	OwnerMismatch = "owner_mismatch"
)

// ReleaseResult is the outcome of [Release].
type ReleaseResult struct {
	Released bool
	// Reason is released, not_found or owner_mismatch.
	Reason   string
	LockPath string
	// Previous is the lock that was found (nil when none).
	Previous *Lock
}

// Release removes the lane's lock when owner matches, or unconditionally when force.
func Release(root, lane, owner string, force bool) (ReleaseResult, error) {
	path := Path(root, lane)
	res := ReleaseResult{LockPath: Rel(lane)}
	cur, err := readFile(path)
	if err != nil {
		return res, err
	}
	if cur == nil {
		res.Reason = NotFound
		return res, nil
	}
	res.Previous = cur
	if !force && cur.Owner != owner {
		res.Reason = OwnerMismatch
		return res, nil
	}
	if err := storage.JournalWrite(path); err != nil {
		return res, err
	}
	if err := os.Remove(path); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			res.Reason = NotFound
			return res, nil
		}
		return res, fmt.Errorf("remove lock: %w", err)
	}
	res.Released, res.Reason = true, Released
	return res, nil
}

// Entry is one lock found by [List].
type Entry struct {
	Lock
	// Path is the root-relative lock file.
	Path string
}

// List returns every lock under root, sorted by file name. Takeover markers are skipped.
func List(root string) ([]Entry, error) {
	dir := filepath.Join(root, filepath.FromSlash(delivery.LocksDir))
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("read locks: %w", err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".lock") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	out := make([]Entry, 0, len(names))
	for _, n := range names {
		l, err := readFile(filepath.Join(dir, n))
		if err != nil {
			return nil, err
		}
		if l == nil {
			continue // released while listing
		}
		out = append(out, Entry{Lock: *l, Path: delivery.LocksDir + "/" + n})
	}
	return out, nil
}
