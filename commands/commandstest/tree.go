package commandstest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Tree is a directory held in memory (its directories, and its regular files with their
// modes and contents), for tests that start many runs from copies of one fixture: a
// workspace made a git repository once, then written out per run. Writing a copy costs
// three system calls a file (open, write, close), where copying one from the disk reads
// the directory, opens and stats the source and sets up both files for the poller.
type Tree struct {
	entries []treeEntry
}

type treeEntry struct {
	rel  string
	dir  bool
	perm fs.FileMode
	data []byte
}

// ReadTree reads dir into memory. Its entries must be directories and regular files: a
// symbolic link or a special file is an error, not something to leave out of the copies.
// So is a linked git worktree (a .git file): it names its repository by absolute path,
// which a copy would keep (parity/compare.CopyTree rewrites it).
func ReadTree(dir string) (*Tree, error) {
	t := &Tree{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			t.entries = append(t.entries, treeEntry{rel: rel, dir: true, perm: info.Mode().Perm()})
		case d.Name() == ".git":
			return fmt.Errorf("%s: a linked worktree, whose absolute path a copy would keep", p)
		case info.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			t.entries = append(t.entries, treeEntry{rel: rel, perm: info.Mode().Perm(), data: data})
		default:
			return fmt.Errorf("%s: neither a directory nor a regular file (%s)", p, info.Mode().Type())
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// Write writes the tree into dst, which is created if it does not exist. Directories of
// the tree may exist in dst already; its files may not. Modes are the tree's, less the
// umask, as a copy gets them.
func (t *Tree) Write(dst string) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, e := range t.entries {
		p := filepath.Join(dst, e.rel)
		if e.dir {
			// Writable by its owner while the copy is written, as the source was walked.
			if err := os.Mkdir(p, e.perm|0o700); err != nil {
				if info, serr := os.Stat(p); serr != nil || !info.IsDir() {
					return err
				}
			}
			continue
		}
		if err := writeNew(p, e.data, e.perm); err != nil {
			return err
		}
	}
	return nil
}

// writeNew creates the file p with data: os.WriteFile's work without its setup of the
// descriptor for the runtime's poller, which a regular file never uses.
func writeNew(p string, data []byte, perm fs.FileMode) error {
	fd, err := syscall.Open(p, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, uint32(perm))
	if err != nil {
		return &fs.PathError{Op: "create", Path: p, Err: err}
	}
	for len(data) > 0 {
		n, err := syscall.Write(fd, data)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			_ = syscall.Close(fd)
			return &fs.PathError{Op: "write", Path: p, Err: err}
		}
		data = data[n:]
	}
	if err := syscall.Close(fd); err != nil {
		return &fs.PathError{Op: "close", Path: p, Err: err}
	}
	return nil
}
