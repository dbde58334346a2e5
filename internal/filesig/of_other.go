//go:build !linux

package filesig

import "io/fs"

// Of is the signature of a stat result: size, mode and mtime (identity and ctime are
// not known here).
func Of(fi fs.FileInfo) Sig {
	return Sig{Size: fi.Size(), Mtime: fi.ModTime(), Mode: fi.Mode()}
}
