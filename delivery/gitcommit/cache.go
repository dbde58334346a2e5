package gitcommit

import (
	"slices"
	"sync"
)

// A Cache keeps at most cacheFiles index files (one per work tree a host commits in),
// of at most cacheBytes together (a parse holds the file's bytes).
const (
	cacheFiles = 16
	cacheBytes = 64 << 20
)

// Cache keeps, across the commits of a long-lived process, what the next commit would
// otherwise compute again: the index files it last read or wrote, parsed and known by
// their stamp (size and trailing checksum: the SHA-1 of the content), so that a commit
// finding the index as the previous one left it neither reads nor parses it again (a
// changed index has another stamp and is read as before); and the deflated pieces of
// large objects, so that a file that grew (an append-only log) or a big tree with one
// entry changed is deflated only where it changed.
// It is safe for concurrent use; the zero value is ready. Give it to [Repo.UseCache].
type Cache struct {
	pieces pieces // of large objects' deflated content (deflate.go)

	mu    sync.Mutex
	files map[string]cachedIndex // index file path → its last parse
	order []string               // paths, least recently stored first
	bytes int64                  // the files' sizes together
}

type cachedIndex struct {
	stamp string
	idx   *index // never changed once stored: users get a clone
}

// get returns a private copy of path's index when the cache holds the one stamped stamp.
func (c *Cache) get(path, stamp string) (*index, bool) {
	if c == nil || stamp == "" {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	ci, ok := c.files[path]
	if !ok || ci.stamp != stamp {
		return nil, false
	}
	return ci.idx.clone(), true
}

// put stores idx as path's index stamped stamp; the caller must not change idx after.
func (c *Cache) put(path, stamp string, idx *index) {
	if c == nil || stamp == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.files == nil {
		c.files = map[string]cachedIndex{}
	}
	if old, ok := c.files[path]; ok {
		c.order = slices.DeleteFunc(c.order, func(p string) bool { return p == path })
		c.bytes -= old.idx.size
		delete(c.files, path)
	}
	if idx.size > cacheBytes {
		return // read as before
	}
	for len(c.order) >= cacheFiles || len(c.order) > 0 && c.bytes+idx.size > cacheBytes {
		c.bytes -= c.files[c.order[0]].idx.size
		delete(c.files, c.order[0])
		c.order = c.order[1:]
	}
	c.files[path] = cachedIndex{stamp: stamp, idx: idx}
	c.order = append(c.order, path)
	c.bytes += idx.size
}

// clone is a copy of idx whose entry and extension lists can be changed without
// changing idx (entries themselves are never changed in place: set replaces them).
func (idx *index) clone() *index {
	c := *idx
	c.entries = slices.Clone(idx.entries)
	c.exts = slices.Clone(idx.exts)
	return &c
}
