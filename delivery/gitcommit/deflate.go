package gitcommit

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/adler32"
	"hash/maphash"
	"io"
	"sync"
)

// Large objects are deflated in pieces a Cache keeps: the content is cut at every
// pieceSize bytes from its start, each piece deflated on its own and ended with a sync
// flush (byte-aligned, not final), so that the pieces of the previous version of a file
// that are still the same (all but the last of an append-only log, all but the changed
// one of a big tree) are reused as they are. The stream is an ordinary zlib stream: the
// header of the level, the pieces, a final empty block, the Adler-32 of everything,
// which git and any inflater read as one. Only the bytes on disk differ from git's one
// pass; the object, and its name, are the same.
const (
	pieceSize = 16 << 10
	// piecedMin is the smallest content written in pieces; smaller objects cost little
	// to deflate in one pass.
	piecedMin = 2 * pieceSize
	// piecesMax bounds the bytes (content and deflated) a Cache keeps of pieces; it
	// forgets them all when full.
	piecesMax = 32 << 20
)

// piece is one deflated piece of content.
type piece struct {
	raw      []byte // the content it was made from (a copy)
	deflated []byte // raw deflated at the level, sync-flushed
	adler    uint32 // the Adler-32 of raw
}

// pieces is a Cache's store of pieces, by level and a hash of their content.
type pieces struct {
	mu   sync.Mutex
	seed maphash.Seed
	m    map[pieceKey]*piece
	size int
	// deflated counts the content bytes deflated (not taken from the store), for tests.
	deflated int
}

type pieceKey struct {
	level int
	sum   uint64
}

// writeDeflated writes to w the zlib stream of header and content at level, taking the
// pieces of content the cache holds and keeping those it makes.
func (c *Cache) writeDeflated(w io.Writer, level int, header, content []byte) error {
	p := &c.pieces
	p.mu.Lock()
	if p.m == nil {
		p.seed, p.m = maphash.MakeSeed(), map[pieceKey]*piece{}
	}
	p.mu.Unlock()
	out := buffers.Get().(*bytes.Buffer)
	defer buffers.Put(out)
	out.Reset()
	out.Write(zlibHeader(level))
	if err := deflatePiece(out, level, header); err != nil {
		return err
	}
	sum := adler32.Checksum(header)
	for off := 0; off < len(content); off += pieceSize {
		raw := content[off:min(off+pieceSize, len(content))]
		pc, err := p.get(level, raw)
		if err != nil {
			return err
		}
		out.Write(pc.deflated)
		sum = adlerCat(sum, pc.adler, len(raw))
	}
	out.Write(finalBlock)
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], sum)
	out.Write(tail[:])
	_, err := w.Write(out.Bytes())
	return err
}

// get returns the piece of raw at level, made now unless the store has it.
func (p *pieces) get(level int, raw []byte) (*piece, error) {
	key := pieceKey{level: level, sum: maphash.Bytes(p.seed, raw)}
	p.mu.Lock()
	pc, ok := p.m[key]
	p.mu.Unlock()
	if ok && bytes.Equal(pc.raw, raw) {
		return pc, nil
	}
	var b bytes.Buffer
	if err := deflatePiece(&b, level, raw); err != nil {
		return nil, err
	}
	pc = &piece{raw: bytes.Clone(raw), deflated: b.Bytes(), adler: adler32.Checksum(raw)}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.deflated += len(raw)
	if p.size+len(pc.raw)+len(pc.deflated) > piecesMax {
		clear(p.m)
		p.size = 0
	}
	p.m[key] = pc
	p.size += len(pc.raw) + len(pc.deflated)
	return pc, nil
}

// buffers keep the buffers a zlib stream or an index file is made in before it is
// written.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// flaters keep raw deflate writers per level (-1…9).
var flaters [11]sync.Pool

// deflatePiece writes b deflated at level, ended by a sync flush.
func deflatePiece(w io.Writer, level int, b []byte) error {
	fw, ok := flaters[level+1].Get().(*flate.Writer)
	if ok {
		fw.Reset(w)
	} else {
		var err error
		if fw, err = flate.NewWriter(w, level); err != nil {
			return err
		}
	}
	defer flaters[level+1].Put(fw)
	if _, err := fw.Write(b); err != nil {
		return err
	}
	return fw.Flush()
}

// finalBlock is a final, empty stored block: the end of a deflate stream whose blocks
// so far were all flushed.
var finalBlock = []byte{0x01, 0x00, 0x00, 0xff, 0xff}

// zlibHeader is the two-byte zlib header (RFC 1950) of a 32 KiB window with the level's
// FLEVEL hint, as zlib writes it.
func zlibHeader(level int) []byte {
	const cmf = 0x78
	var flevel byte
	switch {
	case level == 0 || level == 1:
		flevel = 0
	case level >= 2 && level <= 5:
		flevel = 1
	case level == 6 || level == -1:
		flevel = 2
	default:
		flevel = 3
	}
	flg := flevel << 6
	flg += byte((31 - (uint(cmf)<<8+uint(flg))%31) % 31)
	return []byte{cmf, flg}
}

// adlerCat is the Adler-32 of x followed by y, from the Adler-32 of each and y's
// length: the sum A of the bytes adds up (less the one each starts from), and every
// byte of y adds x's A, less that one, to the running sum B.
func adlerCat(x, y uint32, ny int) uint32 {
	const mod = 65521
	ax, bx := x&0xffff, x>>16
	ay, by := y&0xffff, y>>16
	n := uint32(ny % mod)
	a := (ax + ay + mod - 1) % mod
	b := (bx + by + n*((ax+mod-1)%mod)%mod) % mod
	return b<<16 | a
}
