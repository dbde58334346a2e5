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
// written after an exit is cut off.
//
// The files are reused across runs without being emptied: a run's output is the part
// after base, where the previous run ended (the offset always equals the size, as
// nothing seeks). Emptying a memfd frees its pages and the next write allocates them
// again, which costs more than the rest of a small run; so an output stream is
// truncated only once it holds more than rewindAt bytes.
type stream struct {
	f    *os.File
	fd   int
	base int64 // where this run's output starts
	end  int64 // size at the end of the previous run, as far as the lane knows
}

// rewindAt is the size beyond which an output stream is emptied before the next run.
const rewindAt = 1 << 20

func newStream(name string) (*stream, error) {
	fd, err := unix.MemfdCreate("cmdbridge-"+name, unix.MFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("memfd for %s: %w", name, err)
	}
	return &stream{f: os.NewFile(uintptr(fd), "/dev/"+name), fd: fd}, nil
}

// resetOutput starts a new run's output: after the previous one, or at 0 once the file
// has grown past rewindAt.
func (s *stream) resetOutput() error {
	if s.end > rewindAt {
		if err := unix.Ftruncate(s.fd, 0); err != nil {
			return fmt.Errorf("truncate %s: %w", s.f.Name(), err)
		}
		if _, err := unix.Seek(s.fd, 0, io.SeekStart); err != nil {
			return fmt.Errorf("rewind %s: %w", s.f.Name(), err)
		}
		s.end = 0
	}
	s.base = s.end
	return nil
}

// resetInput makes the stream hold exactly data with the read offset at 0. An input
// that was empty and stays empty costs nothing: reads at end of file do not move the
// offset.
func (s *stream) resetInput(data []byte) error {
	if s.end == 0 && len(data) == 0 {
		return nil
	}
	if err := unix.Ftruncate(s.fd, 0); err != nil {
		return fmt.Errorf("truncate %s: %w", s.f.Name(), err)
	}
	if len(data) > 0 {
		if _, err := unix.Pwrite(s.fd, data, 0); err != nil {
			return fmt.Errorf("fill %s: %w", s.f.Name(), err)
		}
	}
	s.end = int64(len(data))
	if _, err := unix.Seek(s.fd, 0, io.SeekStart); err != nil {
		return fmt.Errorf("rewind %s: %w", s.f.Name(), err)
	}
	return nil
}

// length is the number of bytes this run wrote so far.
func (s *stream) length() int64 {
	var st unix.Stat_t
	if err := unix.Fstat(s.fd, &st); err != nil {
		return 0
	}
	return st.Size - s.base
}

// read returns the run's first n bytes (n < 0: all of them), capped at max, and whether
// the cap cut them. scratch serves small outputs in one pread: a short read of a regular
// file means end of file, so no fstat is needed.
func (s *stream) read(n int64, max int, scratch []byte) ([]byte, bool) {
	if n < 0 {
		got, err := unix.Pread(s.fd, scratch, s.base)
		if err == nil && got < len(scratch) {
			s.end = s.base + int64(got)
			if got > max {
				return append([]byte{}, scratch[:max]...), true
			}
			return append([]byte{}, scratch[:got]...), false
		}
	}
	size := s.length()
	s.end = s.base + size
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
	got, _ := s.f.ReadAt(buf, s.base)
	return buf[:got], truncated
}

func (s *stream) close() { _ = s.f.Close() }
