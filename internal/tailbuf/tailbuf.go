// Package tailbuf keeps the end of a stream: what a child process wrote last is what
// says why it failed, and a bounded buffer keeps a runaway writer from filling memory.
package tailbuf

import "sync"

// Buffer keeps the last Max bytes written to it. It is safe for concurrent writers (a
// child's stdout and stderr into one buffer).
type Buffer struct {
	// Max bounds what is kept.
	Max int

	mu sync.Mutex
	b  []byte
}

// New returns a Buffer keeping the last max bytes.
func New(max int) *Buffer { return &Buffer{Max: max} }

func (t *Buffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(p) >= t.Max {
		t.b = append(t.b[:0], p[len(p)-t.Max:]...)
		return len(p), nil
	}
	if over := len(t.b) + len(p) - t.Max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	t.b = append(t.b, p...)
	return len(p), nil
}

// String returns everything kept.
func (t *Buffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// Tail returns at most the last n kept bytes.
func (t *Buffer) Tail(n int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.b) > n {
		return string(t.b[len(t.b)-n:])
	}
	return string(t.b)
}
