package filesig

import (
	"io/fs"
	"syscall"
	"time"
)

// Of is the signature of a stat result.
func Of(fi fs.FileInfo) Sig {
	s := Sig{Size: fi.Size(), Mtime: fi.ModTime(), Mode: fi.Mode()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.Dev, s.Ino = uint64(st.Dev), st.Ino
		s.Ctime = time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
	}
	return s
}
