package delivery

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cmdbridge/cmdbridge/tool"
)

// Confine resolves p for a file command (corpus §3.3): relative to cwd, cleaned, with the
// symlinks of its deepest existing ancestor resolved. The result must lie inside root (the
// workspace root, or cwd without a workspace), otherwise PATH_OUTSIDE_WORKSPACE; when write
// is set, a path inside root's .git directory is refused the same way. It returns the
// resolved absolute path and its root-relative slash form ("." for root itself).
func Confine(root, cwd, p string, write bool) (abs, rel string, err error) {
	_, abs, rel, err = confine(root, cwd, p, write)
	return abs, rel, err
}

// ConfineRoot is [Confine] that also opens, as an *os.Root, the root directory the path
// was checked against. A file command then operates on rel through that root
// (r.Open, r.Stat, r.Remove, [storage.WriteFileAtomicIn]…), never on abs: a symlink swapped into
// the path after the check cannot lead the operation out of the workspace, because
// os.Root refuses to follow it out (see [RootError]). The caller closes the root.
func ConfineRoot(root, cwd, p string, write bool) (r *os.Root, abs, rel string, err error) {
	realRoot, abs, rel, err := confine(root, cwd, p, write)
	if err != nil {
		return nil, "", "", err
	}
	r, err = os.OpenRoot(realRoot)
	if err != nil {
		return nil, "", "", Errorf(tool.CodeIOError, "open workspace root: %w", err)
	}
	return r, abs, rel, nil
}

// IsRootEscape reports whether err is an os.Root refusing a path that leaves the root
// (through "..", an absolute symlink or one pointing outside).
func IsRootEscape(err error) bool {
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}

// RootError maps an error of an os.Root operation on rel to the file commands' codes: an
// escape is PATH_OUTSIDE_WORKSPACE (the path changed under the call after Confine
// accepted it); anything else is IO_ERROR "<op> <rel>: <err>".
func RootError(op, rel string, err error) error {
	if IsRootEscape(err) {
		return Errorf(tool.CodePathOutsideWorkspace, "path %s is outside the workspace", rel)
	}
	return Errorf(tool.CodeIOError, "%s %s: %w", op, rel, err)
}

func confine(root, cwd, p string, write bool) (realRoot, abs, rel string, err error) {
	realRoot, err = resolveExisting(root)
	if err != nil {
		return "", "", "", Errorf(tool.CodeIOError, "resolve workspace root: %w", err)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	abs, err = resolveExisting(filepath.Clean(p))
	if err != nil {
		return "", "", "", Errorf(tool.CodeIOError, "resolve %s: %w", p, err)
	}
	r, err := filepath.Rel(realRoot, abs)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", "", "", Errorf(tool.CodePathOutsideWorkspace, "path %s is outside the workspace", p)
	}
	rel = filepath.ToSlash(r)
	if write && (rel == ".git" || strings.HasPrefix(rel, ".git/")) {
		return "", "", "", Errorf(tool.CodePathOutsideWorkspace, "path %s is inside .git and cannot be modified", p)
	}
	return realRoot, abs, rel, nil
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
