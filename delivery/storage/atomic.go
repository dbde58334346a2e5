package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/google/renameio/v2"

	"github.com/cmdbridge/cmdbridge/internal/failpoint"
)

// WriteFileAtomic replaces path with data through a temporary file in the same directory
// and a rename, so readers see the old or the new content, never a mix. The file is
// fsynced before the rename and the directory after it (renameio, then a directory
// sync), so after a crash the path holds the old or the new content, never an empty or
// partial file, and a completed write is not lost. An existing file keeps its mode; a new
// one gets perm. Parent directories are created (0755).
//
// Inside a run with a write journal ([BeginJournal]), p's pre-image is journaled first.
func WriteFileAtomic(p string, data []byte, perm fs.FileMode) error {
	if err := JournalWrite(p); err != nil {
		return err
	}
	if err := writeFileAtomic(p, data, perm); err != nil {
		return err
	}
	failpoint.Hit(failpoint.Write)
	return nil
}

// writeFileAtomic is [WriteFileAtomic] without the journal.
func writeFileAtomic(p string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	fi, err := os.Stat(p)
	if perm, err = keptPerm(fi, err, p, perm); err != nil {
		return err
	}
	if err := renameio.WriteFile(p, data, perm, renameio.WithTempDir(dir), renameio.WithStaticPermissions(perm)); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	return syncDir(os.Open(dir))
}

// keptPerm is the mode a write keeps, from the stat of the file (shown in errors): the
// existing file's mode, or perm for a new one; a directory there is an error.
func keptPerm(fi fs.FileInfo, err error, shown string, perm fs.FileMode) (fs.FileMode, error) {
	switch {
	case err == nil && fi.IsDir():
		return 0, fmt.Errorf("%s is a directory", shown)
	case err == nil:
		return fi.Mode().Perm(), nil
	case errors.Is(err, fs.ErrNotExist):
		return perm, nil
	}
	return 0, err
}

// WriteFileAtomicIn is [WriteFileAtomic] for rel (slash-separated) inside root: every
// step, the parent directories, the temporary file, the rename and the directory sync,
// goes through the os.Root, so no symlink can lead the write outside it.
func WriteFileAtomicIn(root *os.Root, rel string, data []byte, perm fs.FileMode) error {
	if abs, err := filepath.Abs(filepath.Join(root.Name(), filepath.FromSlash(rel))); err == nil {
		if err := JournalWrite(abs); err != nil {
			return err
		}
	}
	dir, name := path.Split(rel)
	if dir = path.Clean(dir); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create %s: %w", dir, err)
		}
	}
	sub, err := root.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer sub.Close()
	fi, err := sub.Stat(name)
	if perm, err = keptPerm(fi, err, rel, perm); err != nil {
		return err
	}
	if err := renameio.WriteFile(name, data, perm, renameio.WithRoot(sub), renameio.WithStaticPermissions(perm)); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if err := syncDir(sub.Open(".")); err != nil {
		return err
	}
	failpoint.Hit(failpoint.Write)
	return nil
}

// syncDir fsyncs an opened directory, so a rename into it survives a crash.
func syncDir(d *os.File, err error) error {
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", d.Name(), err)
	}
	return nil
}
