package compare

import (
	"io/fs"
	"syscall"
	"time"
)

// sigOf is the signature of a stat result: identity, size, mode and both change times.
func sigOf(fi fs.FileInfo) fileSig {
	s := fileSig{size: fi.Size(), mtime: fi.ModTime(), mode: fi.Mode()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.dev, s.ino = uint64(st.Dev), st.Ino
		s.ctime = time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
	}
	return s
}
