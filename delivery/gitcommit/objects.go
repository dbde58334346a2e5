package gitcommit

import (
	"bytes"
	"compress/zlib"
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// objects reads a repository's objects (loose ones directly, packed ones through
// go-git) and writes loose objects as git does.
type objects struct {
	dir   string // the objects directory
	level int    // zlib level of loose objects
	packs *packStore
	cache *Cache // nil: none
}

func newObjects(commonDir string, level int) *objects {
	return &objects{dir: filepath.Join(commonDir, "objects"), level: level}
}

// packStore is go-git's reader of one repository's packs, kept between commits while
// objects/pack lists the same packs: opening the pack indexes is most of what a lookup
// costs. A repository without packs has none.
type packStore struct {
	mu    sync.Mutex
	stamp string
	store *filesystem.ObjectStorage
}

// packStores holds the readers of the last repositories committed to (at most
// maxPackStores: a host serves few, a test suite makes many).
var packStores struct {
	sync.Mutex
	m map[string]*packStore
}

const maxPackStores = 32

func (o *objects) packed() *packStore {
	if o.packs != nil {
		return o.packs
	}
	packStores.Lock()
	defer packStores.Unlock()
	if packStores.m[o.dir] == nil {
		if len(packStores.m) >= maxPackStores || packStores.m == nil {
			packStores.m = map[string]*packStore{}
		}
		packStores.m[o.dir] = &packStore{}
	}
	o.packs = packStores.m[o.dir]
	return o.packs
}

// with runs f on the repository's pack reader, reopened when the packs changed;
// without packs it is plumbing.ErrObjectNotFound.
func (p *packStore) with(dir string, f func(*filesystem.ObjectStorage) error) error {
	ents, _ := os.ReadDir(filepath.Join(dir, "pack"))
	var stamp strings.Builder
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".pack") {
			stamp.WriteString(e.Name())
		}
	}
	if stamp.Len() == 0 {
		return plumbing.ErrObjectNotFound
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.store == nil || p.stamp != stamp.String() {
		p.store = filesystem.NewObjectStorage(dotgit.New(osfs.New(filepath.Dir(dir))), cache.NewObjectLRU(cache.MiByte))
		p.stamp = stamp.String()
	}
	return f(p.store)
}

func (o *objects) loosePath(h [20]byte) string {
	x := hex.EncodeToString(h[:])
	return filepath.Join(o.dir, x[:2], x[2:])
}

// read returns an object's type and content.
func (o *objects) read(h [20]byte) (string, []byte, error) {
	f, err := os.Open(o.loosePath(h))
	if err == nil {
		defer f.Close()
		zr, err := zlib.NewReader(f)
		if err != nil {
			return "", nil, err
		}
		b, err := io.ReadAll(zr)
		if err != nil {
			return "", nil, err
		}
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			return "", nil, fmt.Errorf("object %x: no header", h)
		}
		typ, size, _ := strings.Cut(string(b[:i]), " ")
		if n, err := strconv.Atoi(size); err != nil || n != len(b)-i-1 {
			return "", nil, fmt.Errorf("object %x: bad size", h)
		}
		return typ, b[i+1:], nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", nil, err
	}
	var typ string
	var b []byte
	err = o.packed().with(o.dir, func(s *filesystem.ObjectStorage) error {
		obj, err := s.EncodedObject(plumbing.AnyObject, plumbing.Hash(h))
		if err != nil {
			return fmt.Errorf("object %x: %w", h, err)
		}
		r, err := obj.Reader()
		if err != nil {
			return err
		}
		defer r.Close()
		typ = obj.Type().String()
		b, err = io.ReadAll(r)
		return err
	})
	return typ, b, err
}

// has reports whether the object exists, loose or packed.
func (o *objects) has(h [20]byte) bool {
	if _, err := os.Lstat(o.loosePath(h)); err == nil {
		return true
	}
	return o.packed().with(o.dir, func(s *filesystem.ObjectStorage) error { return s.HasEncodedObject(plumbing.Hash(h)) }) == nil
}

func hashObject(typ string, content []byte) [20]byte {
	s := sha1.New()
	fmt.Fprintf(s, "%s %d\x00", typ, len(content))
	s.Write(content)
	var h [20]byte
	s.Sum(h[:0])
	return h
}

// write stores the object unless it exists, as git does: deflated into a temporary file
// beside its final name, made read-only, then linked into place.
func (o *objects) write(typ string, content []byte) ([20]byte, error) {
	h := hashObject(typ, content)
	if o.has(h) {
		return h, nil
	}
	path := o.loosePath(h)
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return h, err
	}
	var suffix [6]byte
	_, _ = rand.Read(suffix[:])
	tmp := filepath.Join(dir, "tmp_obj_"+hex.EncodeToString(suffix[:]))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444)
	if err != nil {
		return h, err
	}
	err = o.deflate(f, typ, content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		if err = os.Link(tmp, path); errors.Is(err, fs.ErrExist) {
			err = nil
		}
	}
	_ = os.Remove(tmp)
	return h, err
}

// deflate writes the loose object's zlib stream: in pieces the cache keeps for a large
// object when there is a cache, in one pass otherwise.
func (o *objects) deflate(w io.Writer, typ string, content []byte) error {
	header := fmt.Appendf(nil, "%s %d\x00", typ, len(content))
	if o.cache != nil && len(content) >= piecedMin {
		return o.cache.writeDeflated(w, o.level, header, content)
	}
	zw, err := deflater(w, o.level)
	if err != nil {
		return err
	}
	defer deflaters[o.level+1].Put(zw)
	if _, err := zw.Write(header); err != nil {
		return err
	}
	if _, err := zw.Write(content); err != nil {
		return err
	}
	return zw.Close()
}

// deflaters keep zlib writers per level (-1…9): a new one allocates its whole state.
var deflaters [11]sync.Pool

func deflater(w io.Writer, level int) (*zlib.Writer, error) {
	if level < -1 || level > 9 {
		return nil, fmt.Errorf("zlib level %d", level)
	}
	if zw, ok := deflaters[level+1].Get().(*zlib.Writer); ok {
		zw.Reset(w)
		return zw, nil
	}
	return zlib.NewWriterLevel(w, level)
}

// trees keeps tree objects by name, read or written, parsed (a name is its content's,
// so a kept tree is never stale): a commit reads back the trees the previous one wrote,
// and the large directories of a workspace are parsed once. The entries are shared:
// nobody changes them. Bounded by treesMax bytes of encoded trees, emptied when full.
var trees struct {
	sync.Mutex
	m    map[[20]byte][]treeEntry
	size int
}

const treesMax = 16 << 20

func cachedTree(h [20]byte) ([]treeEntry, bool) {
	trees.Lock()
	defer trees.Unlock()
	t, ok := trees.m[h]
	return t, ok
}

// keepTree keeps the parsed entries of tree h, whose encoding is size bytes long.
func keepTree(h [20]byte, entries []treeEntry, size int) {
	trees.Lock()
	defer trees.Unlock()
	if trees.m == nil || trees.size+size > treesMax {
		trees.m, trees.size = map[[20]byte][]treeEntry{}, 0
	}
	if _, ok := trees.m[h]; !ok {
		trees.m[h] = slices.Clip(entries)
		trees.size += size
	}
}

// treeEntry is one entry of a tree object.
type treeEntry struct {
	mode uint32
	name string
	hash [20]byte
}

func (e treeEntry) isDir() bool { return e.mode == modeDir }

const (
	modeDir     = 0o040000
	modeFile    = 0o100644
	modeExec    = 0o100755
	modeSymlink = 0o120000
	modeGitlink = 0o160000
)

// canonMode is the mode git writes for an entry read with mode m.
func canonMode(m uint32) uint32 {
	switch m & 0o170000 {
	case modeDir:
		return modeDir
	case modeSymlink:
		return modeSymlink
	case modeGitlink:
		return modeGitlink
	}
	if m&0o100 != 0 {
		return modeExec
	}
	return modeFile
}

func parseTree(b []byte) ([]treeEntry, error) {
	var out []treeEntry
	for len(b) > 0 {
		sp := bytes.IndexByte(b, ' ')
		nul := bytes.IndexByte(b, 0)
		if sp < 0 || nul < sp || nul+21 > len(b) {
			return nil, errors.New("malformed tree")
		}
		m, err := strconv.ParseUint(string(b[:sp]), 8, 32)
		if err != nil {
			return nil, errors.New("malformed tree mode")
		}
		e := treeEntry{mode: uint32(m), name: string(b[sp+1 : nul])}
		copy(e.hash[:], b[nul+1:nul+21])
		out = append(out, e)
		b = b[nul+21:]
	}
	return out, nil
}

// encodeTree sorts entries in git's order (a directory compares as its name and '/'),
// gives them git's modes and encodes them.
func encodeTree(entries []treeEntry) []byte {
	key := func(e treeEntry) string {
		if e.isDir() {
			return e.name + "/"
		}
		return e.name
	}
	sort.Slice(entries, func(i, j int) bool { return key(entries[i]) < key(entries[j]) })
	var w bytes.Buffer
	for i := range entries {
		entries[i].mode = canonMode(entries[i].mode) // as the tree, read back, lists them
		e := entries[i]
		w.WriteString(strconv.FormatUint(uint64(e.mode), 8))
		w.WriteByte(' ')
		w.WriteString(e.name)
		w.WriteByte(0)
		w.Write(e.hash[:])
	}
	return w.Bytes()
}
