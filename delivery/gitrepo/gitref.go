package gitrepo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Reading HEAD and branch refs without a git subprocess. `git branch --show-current` and
// `git rev-parse --verify refs/heads/<b>` run in many reads (wu:status, the location of a
// call, the lane branch a command infers its WU from); each spawn costs milliseconds. For
// the repository discoverGit finds by the plain rules, with refs stored as files (loose
// and packed-refs), the answer is read from the files; anything else (a discovery
// variable, GIT_NAMESPACE, the reftable backend, a HEAD or ref that is not plainly a
// branch or an object id) is left to git, so a fallback costs time, never a different
// answer.

// refRepo is the repository git would use from g.Dir when its refs can be read as
// files; ok is false when git must answer.
func (g *Git) refRepo(ctx context.Context) (gitRepo, bool) {
	environ := g.environ(ctx, nil)
	if environ == nil {
		return gitRepo{}, false // the environment git inherits is not known here
	}
	lookup := listLookup(environ)
	if _, ok := lookup("GIT_NAMESPACE"); ok {
		return gitRepo{}, false
	}
	repo, found := discoverGit(g.Dir, lookup)
	if found != discoverWorkTree {
		return gitRepo{}, false
	}
	if _, err := os.Lstat(filepath.Join(repo.commonDir, "reftable")); !errors.Is(err, fs.ErrNotExist) {
		return gitRepo{}, false
	}
	return repo, true
}

// headBranch is what `git branch --show-current` prints, read from HEAD: the branch HEAD
// names ("" when HEAD is detached). ok is false when git must answer.
func (g *Git) headBranch(ctx context.Context) (branch string, ok bool) {
	repo, ok := g.refRepo(ctx)
	if !ok {
		return "", false
	}
	fi, err := os.Lstat(filepath.Join(repo.gitDir, "HEAD"))
	if err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	data, err := os.ReadFile(filepath.Join(repo.gitDir, "HEAD"))
	if err != nil {
		return "", false
	}
	s := strings.TrimRight(string(data), "\r\n")
	if ref, isRef := strings.CutPrefix(s, "ref: "); isRef {
		name, isBranch := strings.CutPrefix(ref, "refs/heads/")
		if !isBranch || !plainBranchName(name) {
			return "", false
		}
		return name, true
	}
	if isObjectID(s) {
		return "", true // detached
	}
	return "", false
}

// branchExists is `git rev-parse --verify --quiet refs/heads/<branch>` succeeding, read
// from the loose ref, else packed-refs. ok is false when git must answer (a symbolic or
// unreadable ref, a name git may read differently).
func (g *Git) branchExists(ctx context.Context, branch string) (exists, ok bool) {
	if !plainBranchName(branch) {
		return false, false
	}
	repo, ok := g.refRepo(ctx)
	if !ok {
		return false, false
	}
	ref := "refs/heads/" + branch
	data, err := os.ReadFile(filepath.Join(repo.commonDir, filepath.FromSlash(ref)))
	switch {
	case err == nil:
		s := strings.TrimRight(string(data), "\r\n")
		if !isObjectID(s) {
			return false, false
		}
		return true, true
	case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
		return false, false
	}
	f, err := os.Open(filepath.Join(repo.commonDir, "packed-refs"))
	if errors.Is(err, fs.ErrNotExist) {
		return false, true
	}
	if err != nil {
		return false, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] == '#' || line[0] == '^' {
			continue
		}
		oid, name, found := bytes.Cut(line, []byte(" "))
		if found && string(name) == ref && isObjectID(string(oid)) {
			return true, true
		}
	}
	if sc.Err() != nil {
		return false, false
	}
	return false, true
}

// plainBranchName reports whether name is a branch name whose ref file is simply
// refs/heads/<name>: the rules of git check-ref-format that matter for a path, and
// nothing git would read otherwise; anything odd goes to git.
func plainBranchName(name string) bool {
	if name == "" || name == ".invalid" || strings.HasPrefix(name, "-") || strings.HasSuffix(name, "/") ||
		strings.HasSuffix(name, ".lock") || strings.HasSuffix(name, ".") || strings.Contains(name, "..") ||
		strings.Contains(name, "//") || strings.Contains(name, "@{") {
		return false
	}
	for _, part := range strings.Split(name, "/") {
		if part == "" || part[0] == '.' {
			return false
		}
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(" ~^:?*[\\", r) {
			return false
		}
	}
	return true
}

// isObjectID reports whether s is a full object id (SHA-1 or SHA-256, lower-case hex).
func isObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	if strings.ToLower(s) != s {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// listLookup looks keys up in a KEY=VALUE list; the last entry for a key wins, as in
// exec's environment.
func listLookup(environ []string) LookupEnv {
	return func(key string) (string, bool) {
		for i := len(environ) - 1; i >= 0; i-- {
			if k, v, ok := strings.Cut(environ[i], "="); ok && k == key {
				return v, true
			}
		}
		return "", false
	}
}
