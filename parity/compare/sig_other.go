//go:build !linux

package compare

import "io/fs"

// sigOf is the signature of a stat result. Without the platform's stat fields only size,
// mode and mtime are known: ctime stays zero, and the racy rule falls on mtime alone.
func sigOf(fi fs.FileInfo) fileSig {
	return fileSig{size: fi.Size(), mtime: fi.ModTime(), mode: fi.Mode()}
}
