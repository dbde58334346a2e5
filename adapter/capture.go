package adapter

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// stream is one memfd-backed standard stream. The command writes straight into the
// kernel's memory file, so nothing has to drain it (no pipe can fill up and block the
// command), and its exact length at any instant is one fstat away, which is how output
// written after an exit is cut off. The files are reused across runs: a run only
// truncates them.
type stream struct {
	f    *os.File
	size int64 // size left by the previous run, so an untouched stream costs no syscall
}

func newStream(name string) (*stream, error) {
	fd, err := unix.MemfdCreate("cmdbridge-"+name, unix.MFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("memfd for %s: %w", name, err)
	}
	return &stream{f: os.NewFile(uintptr(fd), "/dev/"+name)}, nil
}

// reset empties the stream and, for stdin, fills it with data, leaving the offset at 0.
func (s *stream) reset(data []byte) error {
	fd := int(s.f.Fd())
	if s.size > 0 || len(data) > 0 {
		if err := unix.Ftruncate(fd, 0); err != nil {
			return fmt.Errorf("truncate %s: %w", s.f.Name(), err)
		}
		if len(data) > 0 {
			if _, err := unix.Pwrite(fd, data, 0); err != nil {
				return fmt.Errorf("fill %s: %w", s.f.Name(), err)
			}
		}
	}
	s.size = int64(len(data))
	// The offset moves when the previous command read or wrote, even at size 0.
	if _, err := unix.Seek(fd, 0, io.SeekStart); err != nil {
		return fmt.Errorf("rewind %s: %w", s.f.Name(), err)
	}
	return nil
}

// length is the number of bytes written so far.
func (s *stream) length() int64 {
	var st unix.Stat_t
	if err := unix.Fstat(int(s.f.Fd()), &st); err != nil {
		return 0
	}
	return st.Size
}

// read returns the first n bytes (n = -1: everything), capped at max, and whether the
// cap cut it.
func (s *stream) read(n int64, max int) ([]byte, bool) {
	size := s.length()
	s.size = size
	if n < 0 || n > size {
		n = size
	}
	truncated := false
	if n > int64(max) {
		n, truncated = int64(max), true
	}
	if n == 0 {
		return []byte{}, truncated
	}
	buf := make([]byte, n)
	got, _ := s.f.ReadAt(buf, 0)
	return buf[:got], truncated
}

func (s *stream) close() { _ = s.f.Close() }
