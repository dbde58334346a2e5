package compare

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// CopyTree copies src into dst (which must not exist), keeping modes and
// symlinks; skip, when set, names slash-separated relative paths to leave out
// (a skipped directory is not entered). Git worktree links hold absolute paths (a linked worktree's .git
// file and the repository's .git/worktrees/*/gitdir): in the copy they are
// rewritten from src to dst, or a command run in the copy's worktree would
// act on the original repository.
func CopyTree(src, dst string, skip func(rel string) bool) error {
	return copyTree(src, dst, skip, false)
}

// CopyTreeSharingObjects is CopyTree, except that git's object files (below
// .git/objects/, not its info/) are shared by hard link where the file system allows it:
// git writes an object once, under a name that is its hash, and never changes the file in
// place, so a copy of a repository costs a link per object instead of a read and a
// write. Only for copies whose programs are trusted not to write into an object file
// themselves (parity's lanes, run by the program's own developers): such a write would
// reach the original. The kernel's shadow copies use CopyTree.
func CopyTreeSharingObjects(src, dst string, skip func(rel string) bool) error {
	return copyTree(src, dst, skip, true)
}

// walkTree walks src as the copies do: visit gets each entry's path, its path relative to
// src and its target below dst, with its stat, except what skip names (a skipped
// directory is not entered).
func walkTree(src, dst string, skip func(rel string) bool, visit func(path, rel, target string, d fs.DirEntry, info fs.FileInfo) error) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
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
		info, err := d.Info()
		if err != nil {
			return err
		}
		return visit(path, rel, filepath.Join(dst, rel), d, info)
	})
}

func copyTree(src, dst string, skip func(rel string) bool, share bool) error {
	return walkTree(src, dst, skip, func(path, rel, target string, d fs.DirEntry, info fs.FileInfo) error {
		switch {
		case d.IsDir():
			return os.MkdirAll(target, info.Mode().Perm()|0o700)
		case info.Mode()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case !info.Mode().IsRegular():
			return nil // sockets, fifos: nothing a command leaves for parity
		}
		if IsWorktreeLink(rel, d.Name()) {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			b = bytes.ReplaceAll(b, []byte(src), []byte(dst))
			return os.WriteFile(target, b, info.Mode().Perm())
		}
		if share && IsGitObject(filepath.ToSlash(rel)) && os.Link(path, target) == nil {
			return nil
		}
		return copyFile(path, target, info.Mode().Perm())
	})
}

// IsGitObject reports whether a slash-separated relative path names an object file of
// a repository's .git directory (the main one or a nested one's): a loose object or a
// pack's file, not the store's info/ (alternates, commit-graph).
func IsGitObject(rel string) bool {
	i := strings.Index(rel, ".git/objects/")
	if i < 0 || (i > 0 && rel[i-1] != '/') {
		return false
	}
	return !strings.HasPrefix(rel[i+len(".git/objects/"):], "info/")
}

// IsWorktreeLink reports whether a file holds an absolute worktree path.
func IsWorktreeLink(rel, name string) bool {
	rel = filepath.ToSlash(rel)
	if name == ".git" {
		return true // a linked worktree's "gitdir: /abs/.git/worktrees/x"
	}
	return name == "gitdir" && strings.Contains(rel, ".git/worktrees/")
}

func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	// io.Copy between two files is copy_file_range(2), which XFS and Btrfs answer by
	// sharing the extents (a reflink) and other file systems by copying in the kernel.
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copy %s: %w", src, err)
	}
	return out.Close()
}
