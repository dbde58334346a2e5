package compare

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cmdbridge/cmdbridge/internal/filesig"
)

// SyncTree makes dst hold what CopyTree(src, dst, skip) would create, changing only what
// differs: files whose content or mode differ are rewritten in place (same inode, so a
// cache validated by signature sees an in-place edit, maybe of the same size), missing
// entries are created, entries src lacks are removed. Worktree links are rewritten from
// src to dst as CopyTree does. A git object file dst already holds under the same name
// and size is kept without reading it: git names an object by its content and never
// rewrites one, so only an object a program wrote into in dst itself could differ. A
// directory kept in step this way costs a read of the workspace's files, not a write of
// them, on every call after the first (the kernel's shadow lane, parity's lanes).
func SyncTree(src, dst string, skip func(rel string) bool) error {
	return syncTree(src, dst, skip, false, nil)
}

// SyncTreeSharingObjects is SyncTree, except that the git object files it brings to dst
// are hard links to src's where the file system allows it, as CopyTreeSharingObjects
// makes them; only for programs trusted not to write into an object file.
func SyncTreeSharingObjects(src, dst string, skip func(rel string) bool) error {
	return syncTree(src, dst, skip, true, nil)
}

// DefaultRacyWindow is how long after a file's last change a Mirror still reads it by
// default: wider than the coarse clock the kernel stamps files with (a few milliseconds)
// and than the one- and two-second times of some filesystems.
const DefaultRacyWindow = 2 * time.Second

// Mirror keeps Dst in step with Src from one Sync to the next, as SyncTree does (git
// objects copied, not shared), but without reading what has not changed: it remembers
// each file's stat signature (identity, size, mode, modification and change times) on
// both sides, and a file whose two signatures are as they were after the last Sync is
// skipped. A file the last Sync read within the racy window of its last change is read again
// (a later write in the same clock tick would leave its signature as it was, the rule git
// applies to its index), and a file Sync wrote or checked in Dst gets Src's modification
// time, so that a program that writes it in Dst afterwards (the shadow lane's native
// run) changes its signature. Steady state, a Sync costs two stats per file and a
// listing per directory. Not safe for concurrent use.
type Mirror struct {
	Src, Dst string
	// Skip, when set, names slash-separated relative paths of Src to leave out.
	Skip func(rel string) bool
	// RacyWindow: 0 is DefaultRacyWindow.
	RacyWindow time.Duration
	seen       map[string]mirrored
}

// Unchanged returns the files (slash-separated paths) that are, in Src and in Dst, as the
// last Sync left them, by the same rule a Sync skips them by: what programs run on the
// two sides since then did not touch, so their contents are still equal. A caller
// comparing the two trees afterwards need not read them: each path maps to a digest for
// SnapshotKnown, made of Src's stat signature, which changes with its content.
func (m *Mirror) Unchanged() map[string]string {
	out := map[string]string{}
	for rel, p := range m.seen {
		if !p.settled || IsGitObject(filepath.ToSlash(rel)) {
			continue
		}
		a, err := os.Lstat(filepath.Join(m.Src, rel))
		if err != nil || !a.Mode().IsRegular() || !p.src.Equal(sigOf(a)) {
			continue
		}
		b, err := os.Lstat(filepath.Join(m.Dst, rel))
		if err != nil || !p.dst.Equal(sigOf(b)) {
			continue
		}
		out[filepath.ToSlash(rel)] = digest(p.src)
	}
	return out
}

// mirrored is what a Mirror knows of a file after a Sync.
type mirrored struct {
	src, dst fileSig
	// settled: src had not changed for the racy window when it was read, so its signature
	// alone says it has not changed since.
	settled bool
}

// Sync brings Dst to Src's content.
func (m *Mirror) Sync() error {
	next := map[string]mirrored{}
	w := m.RacyWindow
	if w <= 0 {
		w = DefaultRacyWindow
	}
	err := syncTree(m.Src, m.Dst, m.Skip, false, &mirrorRun{prev: m.seen, next: next, t0: time.Now(), window: w})
	if err != nil {
		m.seen = nil // start over: what is in Dst is no longer known
		return err
	}
	m.seen = next
	return nil
}

// mirrorRun is one Mirror.Sync's state.
type mirrorRun struct {
	prev, next map[string]mirrored
	t0         time.Time // taken before any stat of this run
	window     time.Duration
	dirs       []dirSeen
}

// unchanged reports whether rel is, on both sides, as the last Sync left it.
func (r *mirrorRun) unchanged(rel string, info fs.FileInfo, target string) bool {
	p, ok := r.prev[rel]
	if !ok || !p.settled || !p.src.Equal(sigOf(info)) {
		return false
	}
	cur, err := os.Lstat(target)
	if err != nil || !p.dst.Equal(sigOf(cur)) {
		return false
	}
	r.next[rel] = p
	return true
}

// record remembers both signatures of rel. A file's target is first stamped with src's
// modification time; a directory's is not, and its own signature must be settled too
// (this Sync may just have written into it).
func (r *mirrorRun) record(rel string, info fs.FileInfo, target string, file bool) error {
	if file {
		if err := os.Chtimes(target, time.Time{}, info.ModTime()); err != nil {
			return err
		}
	}
	cur, err := os.Lstat(target)
	if err != nil {
		return err
	}
	s, t := sigOf(info), sigOf(cur)
	r.next[rel] = mirrored{src: s, dst: t, settled: r.settled(s) && (file || r.settled(t))}
	return nil
}

// settled is the racy rule: s was read (t0 taken before its stat) more than the racy
// window after its last change, so any later change gives it a later time.
func (r *mirrorRun) settled(s fileSig) bool {
	return s.Settled(r.t0, r.window)
}

func syncTree(src, dst string, skip func(rel string) bool, share bool, mr *mirrorRun) error {
	keep := map[string]bool{}
	whole := map[string]bool{} // directories kept with everything in them
	err := walkTree(src, dst, skip, func(path, rel, target string, d fs.DirEntry, info fs.FileInfo) error {
		switch {
		case d.IsDir():
			keep[rel] = true
			if mr != nil && rel != "." && IsGitObject(filepath.ToSlash(rel)) {
				// A directory of git's object store holds files that are added and
				// removed, never changed: one whose listing is as the last Sync left it
				// on both sides is skipped whole.
				if mr.unchanged(rel, info, target) {
					whole[rel] = true
					return filepath.SkipDir
				}
				mr.dirs = append(mr.dirs, dirSeen{rel, target, info})
			}
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
		if IsGitObject(filepath.ToSlash(rel)) {
			return syncObject(path, target, info, share)
		}
		if mr != nil && mr.unchanged(rel, info, target) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if IsWorktreeLink(rel, d.Name()) {
			data = bytes.ReplaceAll(data, []byte(src), []byte(dst))
		}
		if err := syncFile(target, data, info.Mode().Perm()); err != nil || mr == nil {
			return err
		}
		return mr.record(rel, info, target, true)
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
		if whole[rel] {
			return filepath.SkipDir
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
	if mr != nil {
		// A directory's listing is known once everything in it is in step; its signature
		// in src is the one read before its listing.
		for _, d := range mr.dirs {
			if err := mr.record(d.rel, d.info, d.target, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// dirSeen is a directory a Mirror's Sync walked, to record once it is in step.
type dirSeen struct {
	rel, target string
	info        fs.FileInfo
}

// syncObject brings a git object file to dst: one of the same name and size is the same
// object and is kept; a differing one is replaced, never written in place (it may be a
// link to src's).
func syncObject(src, dst string, info fs.FileInfo, share bool) error {
	cur, err := os.Lstat(dst)
	if err == nil && cur.Mode().IsRegular() && cur.Size() == info.Size() {
		return nil
	}
	if err == nil {
		if err := os.RemoveAll(dst); err != nil {
			return err
		}
	}
	if share && os.Link(src, dst) == nil {
		return nil
	}
	return copyFile(src, dst, info.Mode().Perm())
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

// fileSig is a file's stat signature (package internal/filesig).
type fileSig = filesig.Sig

// sigOf is the signature of a stat result.
func sigOf(fi fs.FileInfo) fileSig { return filesig.Of(fi) }

// digest names the content s was taken of: "unread:" and the signature's fields.
func digest(s fileSig) string {
	return fmt.Sprintf("unread:%x:%x:%x:%o:%x:%x", s.Dev, s.Ino, s.Size, uint32(s.Mode), s.Mtime.UnixNano(), s.Ctime.UnixNano())
}
