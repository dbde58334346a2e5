package kernel

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// protectedPath reports whether the resolved path rp reaches one of roots (resolved
// directories no path input may reach): by its path, or by identity. Paths are compared
// first; identity catches the names the path comparison cannot see, because the same
// file or directory appears under another name:
//
//   - a hard link: rp is a file (not a directory) with more than one link, and one of
//     its links lies under a root (found by device and inode);
//   - a bind mount or another alias of a whole root: a directory on rp's way (rp
//     included) is a root under another name (same device and inode).
//
// A bind mount of a directory inside a root is not detected: only root could make one.
// stateRoot is the state directory: under the other roots (the repository's .git),
// objects/ is not searched for hard links, since git links object files between local
// clones itself, the objects are read-only and hash-checked, and searching them on every
// linked file would cost what the repository's size costs.
func protectedPath(rp string, roots []string, stateRoot string) bool {
	if withinAny(rp, roots) {
		return true
	}
	var rootInfos []os.FileInfo
	for _, r := range roots {
		if fi, err := os.Stat(r); err == nil && fi.IsDir() {
			rootInfos = append(rootInfos, fi)
		}
	}
	if len(rootInfos) == 0 {
		return false
	}
	var fi os.FileInfo // rp's own, from the walk up
	for cur := rp; ; {
		if info, err := os.Stat(cur); err == nil {
			if cur == rp {
				fi = info
			}
			for _, r := range rootInfos {
				if os.SameFile(info, r) {
					return true
				}
			}
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			break
		}
		cur = parent
	}
	if fi == nil || fi.IsDir() || linkCount(fi) < 2 {
		return false
	}
	for _, root := range roots {
		if linkedUnder(fi, root, stateRoot) {
			return true
		}
	}
	return false
}

// linkedUnder reports whether the file fi is also a file under root.
func linkedUnder(fi os.FileInfo, root, stateRoot string) bool {
	found := false
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable corner: nothing a tool could read through either
		}
		if d.IsDir() {
			if d.Name() == "objects" && !within(p, stateRoot) {
				return filepath.SkipDir
			}
			return nil
		}
		if info, err := d.Info(); err == nil && os.SameFile(info, fi) {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// linkCount is a file's number of hard links (1 when the platform does not say).
func linkCount(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
