package parity

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/cmdbridge/cmdbridge/parity/compare"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Warm is what the warm lane (LaneWarm) runs the native implementation with, as a
// long-lived host runs it: always in the same directory,
// with the host's store handed to the call, so the warm state a native tool keeps per
// workspace root (the corpus's index) is reused from call to call. Before each call the
// directory is brought to the workspace's content by SyncTree, which rewrites only what
// differs, in place: the warm state must notice exactly those changes, which is what a
// warm parity run checks.
type Warm struct {
	// Store is handed to the native call as tool.Env.Store.
	Store *tool.Store
	// Dir is where the native lane's copy lives; it must not lie inside the workspace.
	Dir string
}

// Kept is where the subprocess, adapter and native lanes of a series of calls (one
// script's) keep their directories, one per lane and workspace: each call brings a
// lane's directory to the workspace's content with SyncTree, which writes only what
// differs, instead of copying every file of the workspace for every lane of every call
// and removing the copies afterwards (a fresh copy per lane was most of what a parity
// call cost). A lane still starts each call from exactly the workspace's content. The
// directories are the caller's to remove (Close).
type Kept struct {
	mu   sync.Mutex
	root string            // "": not made yet
	byWS map[string]string // workspace -> its directory below root
}

// dir is the directory lane keeps for workspace ws.
func (k *Kept) dir(ws, lane string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.root == "" {
		root, err := os.MkdirTemp("", "parity-lanes-")
		if err != nil {
			return "", err
		}
		k.root, k.byWS = root, map[string]string{}
	}
	d, ok := k.byWS[ws]
	if !ok {
		d = filepath.Join(k.root, strconv.Itoa(len(k.byWS)))
		k.byWS[ws] = d
	}
	return filepath.Join(d, lane), nil
}

// keptKey is the testscript value under which a script keeps its Kept.
type keptKey struct{}

// keptOf is the script's Kept (nil outside a suite's script).
func keptOf(ts *testscript.TestScript) *Kept {
	k, _ := ts.Value(keptKey{}).(*Kept)
	return k
}

// Close removes the directories.
func (k *Kept) Close() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.root == "" {
		return nil
	}
	root := k.root
	k.root, k.byWS = "", nil
	return os.RemoveAll(root)
}

// SyncTree makes dst hold what CopyTree(src, dst, skip) would create, changing only what
// differs: files whose content or mode differ are rewritten in place (same inode, so a
// cache validated by signature sees an in-place edit, maybe of the same size), missing
// entries are created, entries src lacks are removed. Worktree links are rewritten from
// src to dst as CopyTree does; git's object files are shared by hard link as
// CopyTreeSharingObjects shares them.
func SyncTree(src, dst string, skip func(rel string) bool) error {
	keep := map[string]bool{}
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if skip != nil && rel != "." && skip(filepath.ToSlash(rel)) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			keep[rel] = true
			return syncDir(target, info.Mode().Perm()|0o700)
		case info.Mode()&fs.ModeSymlink != 0:
			keep[rel] = true
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			if cur, err := os.Readlink(target); err == nil && cur == link {
				return nil
			}
			if err := os.RemoveAll(target); err != nil {
				return err
			}
			return os.Symlink(link, target)
		case !info.Mode().IsRegular():
			return nil // CopyTree leaves them out too
		}
		keep[rel] = true
		if compare.IsGitObject(filepath.ToSlash(rel)) {
			return syncObject(path, target, info)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if compare.IsWorktreeLink(rel, d.Name()) {
			data = bytes.ReplaceAll(data, []byte(src), []byte(dst))
		}
		return syncFile(target, data, info.Mode().Perm())
	})
	if err != nil {
		return err
	}
	// Remove what src lacks, deepest first, so a removed directory is already empty of
	// kept entries when its turn comes.
	var extra []string
	err = filepath.WalkDir(dst, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dst, path)
		if err != nil {
			return err
		}
		if !keep[rel] {
			extra = append(extra, path)
			if d.IsDir() {
				return filepath.SkipDir
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	slices.SortFunc(extra, func(a, b string) int { return strings.Compare(b, a) })
	for _, p := range extra {
		if err := os.RemoveAll(p); err != nil {
			return err
		}
	}
	return nil
}

// syncObject brings a git object file to dst as CopyTreeSharingObjects does, by a hard
// link where the file system allows it: an object file is named by its content and
// never rewritten, so one of the same name and size is the same object, and a
// differing one is replaced, never written in place (it may be a link to src's).
func syncObject(src, dst string, info fs.FileInfo) error {
	cur, err := os.Lstat(dst)
	if err == nil && cur.Mode().IsRegular() && cur.Size() == info.Size() {
		return nil
	}
	if err == nil {
		if err := os.RemoveAll(dst); err != nil {
			return err
		}
	}
	if os.Link(src, dst) == nil {
		return nil
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, info.Mode().Perm())
}

func syncDir(target string, perm fs.FileMode) error {
	info, err := os.Lstat(target)
	if err == nil && info.IsDir() && info.Mode().Perm() == perm {
		return nil
	}
	if err == nil && !info.IsDir() {
		if err := os.RemoveAll(target); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(target, perm); err != nil {
		return err
	}
	return os.Chmod(target, perm)
}

func syncFile(target string, data []byte, perm fs.FileMode) error {
	info, err := os.Lstat(target)
	switch {
	case err == nil && info.Mode().IsRegular():
		cur, err := os.ReadFile(target)
		if err != nil {
			return err
		}
		if !bytes.Equal(cur, data) {
			// In place: O_TRUNC keeps the inode, as an editor saving in place does.
			if err := os.WriteFile(target, data, perm); err != nil {
				return err
			}
		}
		if info.Mode().Perm() != perm {
			return os.Chmod(target, perm)
		}
		return nil
	case err == nil:
		if err := os.RemoveAll(target); err != nil {
			return err
		}
	}
	return os.WriteFile(target, data, perm)
}

// store is w's store, nil for a nil Warm (a cold call).
func (w *Warm) store() *tool.Store {
	if w == nil {
		return nil
	}
	return w.Store
}

// warmKey is the testscript value under which a warm suite keeps a script's Warm.
type warmKey struct{}

// setupWarm gives one script its Warm: one store and one native directory for all of its
// parity and native commands, closed and removed when the script ends.
func setupWarm(env *testscript.Env) error {
	dir, err := os.MkdirTemp("", "parity-warm-")
	if err != nil {
		return err
	}
	w := &Warm{Store: tool.NewStore(), Dir: filepath.Join(dir, "native")}
	env.Values[warmKey{}] = w
	env.Defer(func() {
		_ = w.Store.Close()
		_ = os.RemoveAll(dir)
	})
	return nil
}

// warmOf is the script's Warm, or nil when the suite is not warm.
func warmOf(ts *testscript.TestScript) *Warm {
	w, _ := ts.Value(warmKey{}).(*Warm)
	return w
}
