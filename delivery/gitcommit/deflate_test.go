package gitcommit

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"hash/adler32"
	"io"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAdlerCat(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	b := make([]byte, 300_000)
	r.Read(b)
	for _, cut := range []int{0, 1, 65520, 65521, 65522, 131042, 200_000, len(b)} {
		x, y := b[:cut], b[cut:]
		assert.Equal(t, adler32.Checksum(b), adlerCat(adler32.Checksum(x), adler32.Checksum(y), len(y)), "cut at %d", cut)
	}
	ff := bytes.Repeat([]byte{0xff}, 200_000) // the largest sums
	assert.Equal(t, adler32.Checksum(append(ff, ff...)), adlerCat(adler32.Checksum(ff), adler32.Checksum(ff), len(ff)))
}

func TestZlibHeaderIsZlibs(t *testing.T) {
	for level := -1; level <= 9; level++ {
		var b bytes.Buffer
		zw, err := zlib.NewWriterLevel(&b, level)
		require.NoError(t, err)
		require.NoError(t, zw.Close())
		assert.Equal(t, b.Bytes()[:2], zlibHeader(level), "level %d", level)
	}
}

// TestPiecesReadAsOneStream writes a growing log and a changing tree-like file in
// pieces: every stream must inflate to the object, and each write must deflate only
// the pieces that changed.
func TestPiecesReadAsOneStream(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	var c Cache
	var log []byte
	line := func() []byte {
		return fmt.Appendf(nil, `{"type":"claim","wuId":"WU-%d","timestamp":"2026-03-01T10:%02d:00.000Z"}`+"\n", r.Intn(2000), r.Intn(60))
	}
	for len(log) < 3*pieceSize {
		log = append(log, line()...)
	}
	check := func(level int, content []byte) int {
		t.Helper()
		before := c.pieces.deflated
		header := fmt.Appendf(nil, "blob %d\x00", len(content))
		var out bytes.Buffer
		require.NoError(t, c.writeDeflated(&out, level, header, content))
		zr, err := zlib.NewReader(&out) // checks the header and the Adler-32
		require.NoError(t, err)
		got, err := io.ReadAll(zr)
		require.NoError(t, err)
		require.Equal(t, append(header, content...), got, "level %d, %d bytes", level, len(content))
		return c.pieces.deflated - before
	}
	for _, level := range []int{1, -1, 0, 9} {
		assert.Equal(t, len(log), check(level, log), "first write of level %d: every piece", level)
	}
	for range 5 {
		size := len(log)
		log = append(log, line()...)
		redone := check(1, log)
		assert.LessOrEqual(t, redone, pieceSize+len(log)-size, "an append deflates the last piece and what was added")
		assert.Positive(t, redone)
	}
	assert.Zero(t, check(1, log), "the same content again: nothing deflated")
	changed := bytes.Clone(log)
	changed[pieceSize+10] ^= 1
	assert.Equal(t, pieceSize, check(1, changed), "one byte changed in the second piece")
}

// TestCacheBounds: the index files a Cache keeps are bounded in number and in bytes,
// the least recently stored going first, and one path is kept once.
func TestCacheBounds(t *testing.T) {
	var c Cache
	idx := func(size int64) *index { return &index{size: size} }
	for i := range cacheFiles + 3 {
		c.put(fmt.Sprint("p", i), "s", idx(10))
	}
	assert.Len(t, c.files, cacheFiles)
	assert.NotContains(t, c.files, "p0")
	assert.Contains(t, c.files, fmt.Sprint("p", cacheFiles+2))
	c.put("p5", "t", idx(20))
	c.put("p5", "u", idx(30))
	assert.Equal(t, "u", c.files["p5"].stamp)
	assert.Len(t, c.order, len(c.files), "a path is listed once")
	c.put("big", "s", idx(cacheBytes-5))
	assert.Equal(t, []string{"big"}, c.order, "everything else went to make room")
	assert.EqualValues(t, cacheBytes-5, c.bytes)
	c.put("huge", "s", idx(cacheBytes+1))
	assert.NotContains(t, c.files, "huge", "larger than the bound: not kept")
	_, ok := c.get("big", "s")
	assert.True(t, ok)
}
