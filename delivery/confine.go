package delivery

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cmdbridge/cmdbridge/tool"
)

// Confine resolves p for a file command (spec §3.3): relative to cwd, cleaned, with the
// symlinks of its deepest existing ancestor resolved. The result must lie inside root (the
// workspace root, or cwd without a workspace), otherwise PATH_OUTSIDE_WORKSPACE; when write
// is set, a path inside root's .git directory is refused the same way. It returns the
// resolved absolute path and its root-relative slash form ("." for root itself).
func Confine(root, cwd, p string, write bool) (abs, rel string, err error) {
	realRoot, err := resolveExisting(root)
	if err != nil {
		return "", "", Errorf(tool.CodeIOError, "resolve workspace root: %w", err)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	abs, err = resolveExisting(filepath.Clean(p))
	if err != nil {
		return "", "", Errorf(tool.CodeIOError, "resolve %s: %w", p, err)
	}
	r, err := filepath.Rel(realRoot, abs)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", "", Errorf(tool.CodePathOutsideWorkspace, "path %s is outside the workspace", p)
	}
	rel = filepath.ToSlash(r)
	if write && (rel == ".git" || strings.HasPrefix(rel, ".git/")) {
		return "", "", Errorf(tool.CodePathOutsideWorkspace, "path %s is inside .git and cannot be modified", p)
	}
	return abs, rel, nil
}

// resolveExisting evaluates the symlinks of the deepest existing ancestor of p (p itself
// when it exists) and re-appends the missing tail.
func resolveExisting(p string) (string, error) {
	var tail []string
	cur := p
	for hops := 0; ; hops++ {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			for i := len(tail) - 1; i >= 0; i-- {
				real = filepath.Join(real, tail[i])
			}
			return real, nil
		}
		if !errors.Is(err, fs.ErrNotExist) && !isNotDir(err) {
			return "", err
		}
		parent := filepath.Dir(cur)
		// A dangling symlink would let a write land wherever it points: follow it by hand.
		if fi, lerr := os.Lstat(cur); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 && hops < 40 {
			target, rerr := os.Readlink(cur)
			if rerr != nil {
				return "", rerr
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(parent, target)
			}
			cur = filepath.Clean(target)
			continue
		}
		if parent == cur {
			return p, nil
		}
		tail = append(tail, filepath.Base(cur))
		cur = parent
	}
}

func isNotDir(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && errors.Is(pe.Err, os.ErrInvalid) || strings.Contains(err.Error(), "not a directory")
}
