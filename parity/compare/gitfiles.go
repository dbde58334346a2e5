package compare

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// errAskGit says a repository has something readGitFacts does not read itself.
var errAskGit = errors.New("ask git")

// readGitFacts reads the facts "HEAD", "branches" and "worktrees" of the main worktree
// dir from its .git directory, producing what the git commands of gitFacts print (and
// runGitFacts records), without starting git: a parity call snapshots every lane, and
// the processes were most of a snapshot's cost. It returns errAskGit for what it does
// not read: a linked worktree (.git is a file), a reftable ref store, relative worktree
// paths, symbolic refs among the branches.
func readGitFacts(dir string) (factSet, error) {
	gitDir := filepath.Join(dir, ".git")
	if fi, err := os.Stat(gitDir); err != nil || !fi.IsDir() {
		return nil, errAskGit
	}
	if _, err := os.Stat(filepath.Join(gitDir, "reftable")); err == nil {
		return nil, errAskGit
	}
	refs, err := readRefs(gitDir)
	if err != nil {
		return nil, err
	}
	facts := factSet{}

	head, err := readRegular(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return nil, errAskGit
	}
	if target, ok := symref(head); ok {
		facts["HEAD"] = []byte(refs.short(gitDir, target, false) + "\n")
	} else {
		// What runGitFacts records for `git symbolic-ref -q` on a detached HEAD.
		facts["HEAD"] = []byte("git HEAD: exit status 1 ")
	}

	var branches bytes.Buffer
	for _, name := range refs.names {
		if strings.HasPrefix(name, "refs/heads/") {
			branches.WriteString(refs.short(gitDir, name, true) + "\n")
		}
	}
	facts["branches"] = branches.Bytes()

	wt, err := readWorktrees(dir, gitDir, head)
	if err != nil {
		return nil, err
	}
	facts["worktrees"] = wt
	return facts, nil
}

// symref returns the target of a symbolic ref file's content ("ref: refs/heads/main").
func symref(b []byte) (string, bool) {
	s := strings.TrimRight(string(b), "\n")
	target, ok := strings.CutPrefix(s, "ref: ")
	return target, ok
}

// refSet is a repository's refs: loose files under refs/ and packed-refs, by full name.
type refSet struct {
	names []string // sorted
	has   map[string]bool
}

func readRefs(gitDir string) (refSet, error) {
	rs := refSet{has: map[string]bool{}}
	if fi, err := os.Lstat(filepath.Join(gitDir, "packed-refs")); err == nil && !fi.Mode().IsRegular() {
		return rs, errAskGit
	}
	if f, err := os.Open(filepath.Join(gitDir, "packed-refs")); err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if line == "" || line[0] == '#' || line[0] == '^' {
				continue
			}
			_, name, ok := strings.Cut(line, " ")
			if !ok {
				f.Close()
				return rs, errAskGit
			}
			rs.has[name] = true
		}
		err := sc.Err()
		f.Close()
		if err != nil {
			return rs, errAskGit
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return rs, errAskGit
	}
	err := filepath.WalkDir(filepath.Join(gitDir, "refs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() || strings.HasSuffix(d.Name(), ".lock") {
			return nil
		}
		if !d.Type().IsRegular() {
			return errAskGit
		}
		rel, err := filepath.Rel(gitDir, path)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if _, ok := symref(b); ok {
			return errAskGit // git lists a symbolic branch by its own rules
		}
		rs.has[filepath.ToSlash(rel)] = true
		return nil
	})
	if err != nil {
		return rs, errAskGit
	}
	for name := range rs.has {
		rs.names = append(rs.names, name)
	}
	slices.Sort(rs.names)
	return rs, nil
}

// exists says whether a ref of this full name exists (a pseudo-ref such as HEAD or
// FETCH_HEAD when the name has no refs/ prefix).
func (rs refSet) exists(gitDir, name string) bool {
	if rs.has[name] {
		return true
	}
	if !strings.HasPrefix(name, "refs/") {
		_, err := os.Stat(filepath.Join(gitDir, filepath.FromSlash(name)))
		return err == nil
	}
	return false
}

// revParseRules are git's rules for turning a short name into a ref, in git's order.
var revParseRules = []string{"%s", "refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s", "refs/remotes/%s/HEAD"}

// short returns the shortest name git prints for a ref: the short form of the last rule
// that matches it, unless another rule resolves that short form to an existing ref, then
// the next. In strict mode (for-each-ref's %(refname:short) under the default
// core.warnAmbiguousRefs) every other rule counts; otherwise (symbolic-ref --short) only
// the rules before the matching one.
func (rs refSet) short(gitDir, name string, strict bool) string {
	for i := len(revParseRules) - 1; i > 0; i-- {
		prefix, suffix, _ := strings.Cut(revParseRules[i], "%s")
		if !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, suffix) || len(name) <= len(prefix)+len(suffix) {
			continue
		}
		short := name[len(prefix) : len(name)-len(suffix)]
		ambiguous := false
		for j, rule := range revParseRules {
			if !strict && j >= i {
				break
			}
			if j != i && rs.exists(gitDir, fmt.Sprintf(rule, short)) {
				ambiguous = true
				break
			}
		}
		if !ambiguous {
			return short
		}
	}
	return name
}

// readWorktrees returns the lines of `git worktree list --porcelain` that worktreeFacts
// keeps: the main worktree first, then the linked ones by path, each with its branch.
func readWorktrees(dir, gitDir string, head []byte) ([]byte, error) {
	main, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, errAskGit
	}
	var out bytes.Buffer
	entry := func(path string, head []byte) {
		fmt.Fprintf(&out, "worktree %s\n", path)
		if target, ok := symref(head); ok {
			fmt.Fprintf(&out, "branch %s\n", target)
		}
	}
	entry(main, head)
	ents, err := os.ReadDir(filepath.Join(gitDir, "worktrees"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, errAskGit
	}
	type linked struct {
		path string
		head []byte
	}
	var all []linked
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		meta := filepath.Join(gitDir, "worktrees", e.Name())
		gd, err := readRegular(filepath.Join(meta, "gitdir"))
		if err != nil {
			return nil, errAskGit
		}
		path := strings.TrimRight(string(gd), " \t\r\n")
		path = strings.TrimSuffix(path, "/.git")
		if !filepath.IsAbs(path) {
			return nil, errAskGit
		}
		h, err := readRegular(filepath.Join(meta, "HEAD"))
		if err != nil {
			return nil, errAskGit
		}
		all = append(all, linked{path, h})
	}
	slices.SortFunc(all, func(a, b linked) int { return strings.Compare(a.path, b.path) })
	for _, l := range all {
		entry(l.path, l.head)
	}
	return out.Bytes(), nil
}

// readRegular reads a file that must be a regular one: a link or a FIFO a lane left in
// .git is git's to judge (and a FIFO would block the read).
func readRegular(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, errAskGit
	}
	return os.ReadFile(path)
}
