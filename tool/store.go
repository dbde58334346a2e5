package tool

import (
	"errors"
	"io"
	"sync"
)

// Store is a host-scoped cache a long-lived host (serve, mcp, a batch) hands every native
// call through Env.Store: values keyed by a string the tool chooses (a workspace root, say),
// built once by the first call that asks and shared by every later call until the host
// closes the store. The toolkit knows nothing of the values; a corpus keeps its own types
// in it (the delivery corpus keeps its warm workspace index, delivery/wsindex).
//
// A nil *Store is valid and caches nothing: Get builds a fresh value each time and the
// caller owns it. One-shot hosts (a single `call`) pass nil, so a tool never pays for
// warming a cache that nobody will reuse.
type Store struct {
	mu     sync.Mutex
	vals   map[string]any
	closed bool
}

// NewStore returns an empty store; the host closes it when it stops serving.
func NewStore() *Store { return &Store{vals: map[string]any{}} }

// ErrStoreClosed is returned by Get on a closed store.
var ErrStoreClosed = errors.New("tool: store closed")

// Get returns the value under key, building it with build on first use. Builds are
// serialised per store, so two concurrent first calls never build twice; a failed build
// stores nothing. On a nil store, build runs every time and shared is false: the caller
// must close the value (when it is an io.Closer) once the call ends.
func (s *Store) Get(key string, build func() (any, error)) (v any, shared bool, err error) {
	if s == nil {
		v, err = build()
		return v, false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, false, ErrStoreClosed
	}
	if v, ok := s.vals[key]; ok {
		return v, true, nil
	}
	v, err = build()
	if err != nil {
		return nil, false, err
	}
	s.vals[key] = v
	return v, true, nil
}

// Lookup returns the value under key without building one (false on a nil or closed
// store, or when nothing is stored yet).
func (s *Store) Lookup(key string) (any, bool) {
	if s == nil {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.vals[key]
	return v, ok
}

// Close closes every stored value that is an io.Closer and empties the store; later Gets
// fail with ErrStoreClosed. It returns the first close error.
func (s *Store) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	vals := s.vals
	s.vals, s.closed = nil, true
	s.mu.Unlock()
	var first error
	for _, v := range vals {
		if c, ok := v.(io.Closer); ok {
			if err := c.Close(); err != nil && first == nil {
				first = err
			}
		}
	}
	return first
}
