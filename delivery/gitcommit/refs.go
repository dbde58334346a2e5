package gitcommit

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// headBranch is the branch HEAD names (refs/heads/…); a detached, unborn or otherwise
// symbolic HEAD is Unsupported.
func headBranch(gitDir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return "", unsupported("HEAD: %v", err)
	}
	s := strings.TrimRight(string(b), "\n")
	ref, ok := strings.CutPrefix(s, "ref: ")
	if !ok {
		return "", unsupported("a detached HEAD")
	}
	if !strings.HasPrefix(ref, "refs/heads/") || strings.Contains(ref, "..") {
		return "", unsupported("HEAD names %s", ref)
	}
	return ref, nil
}

// readRef is ref's object name (loose, else packed-refs); ok is false when the ref does
// not exist. A symbolic ref is Unsupported.
func readRef(commonDir, ref string) (h [20]byte, ok bool, err error) {
	b, err := os.ReadFile(filepath.Join(commonDir, filepath.FromSlash(ref)))
	if err == nil {
		s := strings.TrimRight(string(b), "\n")
		if strings.HasPrefix(s, "ref: ") {
			return h, false, unsupported("%s is a symbolic ref", ref)
		}
		if n, err := hex.Decode(h[:], []byte(s)); err != nil || n != 20 || len(s) != 40 {
			return h, false, unsupported("%s: not an object name", ref)
		}
		return h, true, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		if errors.Is(err, fs.ErrInvalid) || isDirErr(err) {
			return h, false, unsupported("%s: %v", ref, err)
		}
		return h, false, err
	}
	f, err := os.Open(filepath.Join(commonDir, "packed-refs"))
	if errors.Is(err, fs.ErrNotExist) {
		return h, false, nil
	}
	if err != nil {
		return h, false, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) < 42 || line[0] == '#' || line[0] == '^' {
			continue
		}
		if string(line[41:]) == ref && line[40] == ' ' {
			if n, err := hex.Decode(h[:], line[:40]); err != nil || n != 20 {
				return h, false, unsupported("packed-refs: bad line for %s", ref)
			}
			return h, true, nil
		}
	}
	return h, false, sc.Err()
}

func isDirErr(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Err != nil && strings.Contains(pe.Err.Error(), "is a directory")
}

// lockFile creates path+".lock" exclusively, as git's lockfile API does; a lock that
// exists is git's error text.
func lockFile(path, what string) (*os.File, error) {
	f, err := os.OpenFile(path+".lock", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if errors.Is(err, fs.ErrExist) {
		return nil, &GitError{Op: what, Msg: fmt.Sprintf("fatal: Unable to create '%s.lock': File exists.", path)}
	}
	return f, err
}

// updateRef moves ref from old to new under ref.lock, appending the reflog lines git
// appends (ref's and, when HEAD names it, HEAD's) before the lock is committed.
func (r *Repo) updateRef(ref string, old, new [20]byte, ident, msg string) error {
	path := filepath.Join(r.commonDir, filepath.FromSlash(ref))
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return err
	}
	f, err := lockFile(path, "commit")
	if err != nil {
		return err
	}
	abort := func(err error) error {
		f.Close()
		os.Remove(path + ".lock")
		return err
	}
	cur, ok, err := readRef(r.commonDir, ref)
	if err != nil {
		return abort(err)
	}
	if !ok || cur != old {
		return abort(&GitError{Op: "commit", Msg: fmt.Sprintf("fatal: cannot lock ref 'HEAD': is at %x but expected %x", cur, old)})
	}
	if _, err := fmt.Fprintf(f, "%x\n", new); err != nil {
		return abort(err)
	}
	if err := f.Close(); err != nil {
		return abort(err)
	}
	line := fmt.Sprintf("%x %x %s\t%s\n", old, new, ident, msg)
	if r.logRefs {
		for _, log := range []string{filepath.Join(r.commonDir, "logs", filepath.FromSlash(ref)), filepath.Join(r.gitDir, "logs", "HEAD")} {
			if err := appendLog(log, line, r.logAll); err != nil {
				os.Remove(path + ".lock")
				return err
			}
		}
	}
	if err := os.Rename(path+".lock", path); err != nil {
		os.Remove(path + ".lock")
		return err
	}
	return nil
}

// appendLog appends line to a reflog, creating it only when create is set (git's
// core.logAllRefUpdates) or it exists.
func appendLog(path, line string, create bool) error {
	flags := os.O_WRONLY | os.O_APPEND
	if create {
		flags |= os.O_CREATE
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			return err
		}
	}
	f, err := os.OpenFile(path, flags, 0o666)
	if !create && errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = f.WriteString(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// reflogMessage is git's copy_reflog_msg: leading space dropped, each run of
// whitespace one space, trailing space dropped.
func reflogMessage(s string) string {
	var b bytes.Buffer
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteByte(c)
	}
	return b.String()
}
