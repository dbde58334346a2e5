// Package filesig is what a cache compares to tell, from one stat and without reading
// a file, whether it may have changed: its identity (device and inode), size, mode and
// both change times. The warm index (delivery/wsindex) and the shadow mirror
// (parity/compare) keep one per file they hold.
//
// Invariants:
//   - Equal signatures say nothing changed that stat can see; a write within the
//     filesystem's timestamp granularity after the signature was taken can leave it
//     equal, which Settled is for: a signature taken more than a window after its last
//     change cannot hide a later one.
//   - Without the platform's stat fields (not Linux) identity and ctime stay zero.
package filesig

import (
	"io/fs"
	"time"
)

// Sig is a file's stat signature.
type Sig struct {
	Dev, Ino     uint64
	Size         int64
	Mode         fs.FileMode
	Mtime, Ctime time.Time
}

// Equal reports whether every field is the same.
func (s Sig) Equal(o Sig) bool {
	return s.Dev == o.Dev && s.Ino == o.Ino && s.Size == o.Size && s.Mode == o.Mode &&
		s.Mtime.Equal(o.Mtime) && s.Ctime.Equal(o.Ctime)
}

// SameIdentity reports whether both name the same file (device and inode).
func (s Sig) SameIdentity(o Sig) bool { return s.Dev == o.Dev && s.Ino == o.Ino }

// Settled is the racy rule: the signature, taken at t0 (the clock read before the stat),
// is more than window after the file's last change, so any later write gets a later
// time. A zero ctime (not known) falls on mtime alone.
func (s Sig) Settled(t0 time.Time, window time.Duration) bool {
	return t0.Sub(s.Mtime) > window && (s.Ctime.IsZero() || t0.Sub(s.Ctime) > window)
}
