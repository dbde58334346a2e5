package gitcommit

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// The index file (gitformat-index(5)), versions 2 and 3. Entries this package does not
// change are written back as the bytes it read.

const (
	entryFixed     = 62 // stat data, mode, sizes, object name, flags
	flagAssume     = 0x8000
	flagExtended   = 0x4000
	flagStageShift = 12
	extSkipWT      = 0x4000
	extITA         = 0x2000
)

type entry struct {
	name  string
	mode  uint32
	hash  [20]byte
	stage int
	flags uint16 // the on-disk flags word
	ext   uint16 // the extended flags (version 3)
	raw   []byte // the entry as read, padding included; nil for an entry made here
	stat  unix.Stat_t
}

type index struct {
	size    int64 // of the file it was read from or written to
	version uint32
	entries []*entry
	exts    []extension
	sum     [20]byte
}

type extension struct {
	sig  string
	data []byte
}

// readIndex reads the index file at path, or takes it from c when c holds the one that
// is there now, and returns it (a copy the caller may change) with its stamp.
func readIndex(c *Cache, path string) (*index, string, error) {
	if idx, ok := c.get(path, indexStamp(path)); ok {
		return idx, stampOf(idx.size, idx.sum[:]), nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, "", unsupported("index: %v", err)
	}
	idx, err := parseIndex(b)
	if err != nil {
		return nil, "", err
	}
	stamp := stampOf(idx.size, idx.sum[:])
	c.put(path, stamp, idx.clone())
	return idx, stamp, nil
}

func parseIndex(b []byte) (*index, error) {
	if len(b) < 12+20 || string(b[:4]) != "DIRC" {
		return nil, unsupported("index: not an index file")
	}
	body, trailer := b[:len(b)-20], b[len(b)-20:]
	if bytes.Equal(trailer, make([]byte, 20)) {
		return nil, unsupported("index without checksum (index.skipHash)")
	}
	if sum := sha1.Sum(body); !bytes.Equal(sum[:], trailer) {
		return nil, unsupported("index: checksum mismatch")
	}
	idx := &index{size: int64(len(b)), version: binary.BigEndian.Uint32(b[4:8])}
	copy(idx.sum[:], trailer)
	if idx.version != 2 && idx.version != 3 {
		return nil, unsupported("index version %d", idx.version)
	}
	n := int(binary.BigEndian.Uint32(b[8:12]))
	off := 12
	for i := 0; i < n; i++ {
		if off+entryFixed > len(body) {
			return nil, unsupported("index: truncated entry")
		}
		e := &entry{}
		p := body[off:]
		e.mode = binary.BigEndian.Uint32(p[24:28])
		copy(e.hash[:], p[40:60])
		e.flags = binary.BigEndian.Uint16(p[60:62])
		e.stage = int(e.flags>>flagStageShift) & 3
		head := entryFixed
		if e.flags&flagExtended != 0 {
			if idx.version < 3 || len(p) < head+2 {
				return nil, unsupported("index: extended flags in version %d", idx.version)
			}
			e.ext = binary.BigEndian.Uint16(p[62:64])
			head += 2
		}
		nameLen := int(e.flags & 0xfff)
		if nameLen == 0xfff {
			nameLen = bytes.IndexByte(p[head:], 0)
		}
		if nameLen < 0 || head+nameLen > len(p) {
			return nil, unsupported("index: truncated name")
		}
		e.name = string(p[head : head+nameLen])
		size := (head + nameLen + 8) &^ 7
		if size > len(p) {
			return nil, unsupported("index: truncated entry")
		}
		e.raw = p[:size]
		idx.entries = append(idx.entries, e)
		off += size
	}
	for off < len(body) {
		if off+8 > len(body) {
			return nil, unsupported("index: truncated extension")
		}
		sig := string(body[off : off+4])
		size := int(binary.BigEndian.Uint32(body[off+4 : off+8]))
		if off+8+size > len(body) {
			return nil, unsupported("index: truncated extension %q", sig)
		}
		if sig[0] < 'A' || sig[0] > 'Z' {
			return nil, unsupported("index extension %q (split or sparse index)", sig)
		}
		idx.exts = append(idx.exts, extension{sig: sig, data: body[off+8 : off+8+size]})
		off += 8 + size
	}
	return idx, nil
}

// find returns the position of name's stage-0 entry, or where it would go.
func (idx *index) find(name string) (int, bool) {
	i := sort.Search(len(idx.entries), func(i int) bool {
		return idx.entries[i].name >= name
	})
	return i, i < len(idx.entries) && idx.entries[i].name == name && idx.entries[i].stage == 0
}

// set puts e (stage 0) in place of name's entry, or removes name's entry when e is nil.
func (idx *index) set(name string, e *entry) {
	i, ok := idx.find(name)
	switch {
	case ok && e == nil:
		idx.entries = append(idx.entries[:i], idx.entries[i+1:]...)
	case ok:
		idx.entries[i] = e
	case e != nil:
		idx.entries = append(idx.entries, nil)
		copy(idx.entries[i+1:], idx.entries[i:])
		idx.entries[i] = e
	}
}

// newEntry is the index entry git writes for a file it adds: its lstat data, mode and
// blob.
func newEntry(name string, st *unix.Stat_t, mode uint32, hash [20]byte) *entry {
	flags := uint16(len(name))
	if len(name) >= 0xfff {
		flags = 0xfff
	}
	return &entry{name: name, mode: mode, hash: hash, flags: flags, stat: *st}
}

func (e *entry) encode(w *bytes.Buffer) {
	if e.raw != nil {
		w.Write(e.raw)
		return
	}
	var p [entryFixed]byte
	st := &e.stat
	put := binary.BigEndian.PutUint32
	put(p[0:], uint32(st.Ctim.Sec))
	put(p[4:], uint32(st.Ctim.Nsec))
	put(p[8:], uint32(st.Mtim.Sec))
	put(p[12:], uint32(st.Mtim.Nsec))
	put(p[16:], uint32(st.Dev))
	put(p[20:], uint32(st.Ino))
	put(p[24:], e.mode)
	put(p[28:], st.Uid)
	put(p[32:], st.Gid)
	put(p[36:], uint32(st.Size))
	copy(p[40:60], e.hash[:])
	binary.BigEndian.PutUint16(p[60:], e.flags)
	w.Write(p[:])
	w.WriteString(e.name)
	w.Write(make([]byte, (entryFixed+len(e.name)+8)&^7-entryFixed-len(e.name)))
}

// encode is the index file, made in w, and makes idx hold what it wrote: the entries in order, the extensions kept (the cache-tree
// invalidated along changed; the untracked cache, fsmonitor data and the offset tables,
// which describe the old file, dropped, as git accepts), the checksum.
func (idx *index) encode(w *bytes.Buffer, changed []string) []byte {
	w.Grow(int(idx.size) + 4<<10) // the file it was read from, and room for new entries
	var head [12]byte
	copy(head[:], "DIRC")
	binary.BigEndian.PutUint32(head[4:], idx.version)
	binary.BigEndian.PutUint32(head[8:], uint32(len(idx.entries)))
	w.Write(head[:])
	for _, e := range idx.entries {
		e.encode(w)
	}
	var kept []extension
	for _, x := range idx.exts {
		switch x.sig {
		case "TREE":
			if x.data = invalidateTree(x.data, changed); x.data == nil {
				continue
			}
		case "REUC":
		default:
			continue
		}
		kept = append(kept, x)
		var h [8]byte
		copy(h[:], x.sig)
		binary.BigEndian.PutUint32(h[4:], uint32(len(x.data)))
		w.Write(h[:])
		w.Write(x.data)
	}
	// idx is now what it wrote (a Cache keeps it as the file's parse: a cache-tree
	// left valid along the changed paths would tell git a stale tree).
	idx.exts = kept
	sum := sha1.Sum(w.Bytes())
	w.Write(sum[:])
	return w.Bytes()
}

// cacheTree is one node of the TREE extension.
type cacheTree struct {
	name    string
	entries int // -1: invalid
	hash    []byte
	subs    []*cacheTree
}

func parseCacheTree(b []byte) (*cacheTree, []byte, error) {
	i := bytes.IndexByte(b, 0)
	if i < 0 {
		return nil, nil, fmt.Errorf("cache tree: no name")
	}
	t := &cacheTree{name: string(b[:i])}
	b = b[i+1:]
	j := bytes.IndexByte(b, '\n')
	if j < 0 {
		return nil, nil, fmt.Errorf("cache tree: no counts")
	}
	counts := strings.Fields(string(b[:j]))
	b = b[j+1:]
	if len(counts) != 2 {
		return nil, nil, fmt.Errorf("cache tree: bad counts")
	}
	var err error
	if t.entries, err = strconv.Atoi(counts[0]); err != nil {
		return nil, nil, err
	}
	nsub, err := strconv.Atoi(counts[1])
	if err != nil || nsub < 0 {
		return nil, nil, fmt.Errorf("cache tree: bad subtree count")
	}
	if t.entries >= 0 {
		if len(b) < 20 {
			return nil, nil, fmt.Errorf("cache tree: truncated")
		}
		t.hash, b = b[:20], b[20:]
	}
	for k := 0; k < nsub; k++ {
		var sub *cacheTree
		if sub, b, err = parseCacheTree(b); err != nil {
			return nil, nil, err
		}
		t.subs = append(t.subs, sub)
	}
	return t, b, nil
}

func (t *cacheTree) encode(w *bytes.Buffer) {
	fmt.Fprintf(w, "%s\x00%d %d\n", t.name, t.entries, len(t.subs))
	if t.entries >= 0 {
		w.Write(t.hash)
	}
	for _, s := range t.subs {
		s.encode(w)
	}
}

// invalidateTree marks invalid, as git's cache_tree_invalidate_path does, the root and
// every directory on the way to each changed path. An extension it cannot read is
// dropped (nil), which git accepts.
func invalidateTree(data []byte, changed []string) []byte {
	root, rest, err := parseCacheTree(data)
	if err != nil || len(rest) != 0 {
		return nil
	}
	for _, p := range changed {
		t := root
		t.entries, t.hash = -1, nil
		dirs := strings.Split(p, "/")
		for _, d := range dirs[:len(dirs)-1] {
			var next *cacheTree
			for _, s := range t.subs {
				if s.name == d {
					next = s
				}
			}
			if next == nil {
				break
			}
			t = next
			t.entries, t.hash = -1, nil
		}
	}
	var w bytes.Buffer
	root.encode(&w)
	return w.Bytes()
}
