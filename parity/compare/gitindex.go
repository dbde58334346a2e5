package compare

import (
	"bytes"
	"encoding/binary"
)

// indexContent returns what of a git index file (version 2 or 3, the versions git
// writes unless told otherwise) git's answers are made of: each entry's mode, object id,
// flags and path, and the extensions, without the stat data (times, device, inode,
// owner, size), the cache tree and the trailing checksum. Two copies of a repository whose
// indexes differ only there (every lane's copy, after the same commit) get the same
// status from git: the stat data only tells git which working files it may trust
// without reading them, and a copy's files never match the original's inode and
// change time, so git reads them, and answers by content. ok is false for an index it
// does not take apart (another version, a split index, an untracked or fsmonitor cache,
// whose records hold stat data of their own, or bytes that do not parse): the caller
// keeps the file whole.
func indexContent(b []byte, oidLen int) (out []byte, ok bool) {
	const (
		header   = 12
		statData = 40 // ctime, mtime (8 each), dev, ino, mode, uid, gid, size (4 each)
	)
	if len(b) < header+oidLen || !bytes.Equal(b[:4], []byte("DIRC")) {
		return nil, false
	}
	version := binary.BigEndian.Uint32(b[4:8])
	if version != 2 && version != 3 {
		return nil, false
	}
	n := binary.BigEndian.Uint32(b[8:12])
	body := b[:len(b)-oidLen] // the checksum over the whole file is left out
	var w bytes.Buffer
	w.Write(b[:header])
	off := header
	for range n {
		start := off
		if off+statData+oidLen+2 > len(body) {
			return nil, false
		}
		mode := body[off+24 : off+28]
		off += statData
		oid := body[off : off+oidLen]
		off += oidLen
		flagBytes := body[off : off+2]
		flags := binary.BigEndian.Uint16(flagBytes)
		off += 2
		var ext []byte
		if flags&0x4000 != 0 {
			if version < 3 || off+2 > len(body) {
				return nil, false
			}
			ext = body[off : off+2]
			off += 2
		}
		nameLen := int(flags & 0x0fff)
		if nameLen == 0x0fff {
			i := bytes.IndexByte(body[off:], 0)
			if i < 0 {
				return nil, false
			}
			nameLen = i
		}
		if off+nameLen >= len(body) || body[off+nameLen] != 0 {
			return nil, false
		}
		name := body[off : off+nameLen]
		// The entry is padded with 1 to 8 NULs to a multiple of 8 bytes.
		end := start + (off+nameLen-start+8)&^7
		if end > len(body) {
			return nil, false
		}
		for _, c := range body[off+nameLen : end] {
			if c != 0 {
				return nil, false
			}
		}
		off = end
		w.Write(mode)
		w.Write(oid)
		w.Write(flagBytes)
		w.Write(ext)
		w.Write(name)
		w.WriteByte(0)
	}
	// Extensions: a 4-byte signature, a 4-byte length, the data.
	for off < len(body) {
		if off+8 > len(body) {
			return nil, false
		}
		sig := string(body[off : off+4])
		size := int(binary.BigEndian.Uint32(body[off+4 : off+8]))
		if off+8+size > len(body) {
			return nil, false
		}
		switch sig {
		case "TREE":
			// The cache tree: the trees of the entries, kept so that git need not hash
			// them again, which it may drop or invalidate at will (an index written
			// by another program may lack it); git's answers are the same without it.
		case "REUC", "EOIE", "IEOT":
			// Resolve-undo records are content; the two offset tables follow from
			// the entries.
			w.Write(body[off : off+8+size])
		default:
			return nil, false
		}
		off += 8 + size
	}
	return w.Bytes(), true
}
