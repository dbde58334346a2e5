package gitrepo

import (
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

// Repository discovery without a git subprocess. MainCheckout and InWorkTree run on every
// workspace open and in many commands; spawning `git rev-parse` for them costs milliseconds
// per call, most of a native tool's time. discoverGit follows git's own walk (setup.c,
// setup_git_directory_gently_1) for the plain layouts a workspace lives in, and answers
// discoverAskGit for everything else, so that the callers run the git subprocess instead:
// an answer that differs from git's is a bug, a fallback only costs time.

// gitDiscoveryEnv are the variables that change where git looks for the repository or what
// it accepts as one. When any is set, even empty, git decides: re-implementing them is not
// worth the risk of answering differently.
var gitDiscoveryEnv = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR",
	"GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_OBJECT_DIRECTORY"}

// gitRepo is what `git rev-parse --path-format=absolute --git-dir --git-common-dir
// --show-toplevel` prints for a directory inside a work tree: every path absolute with
// symlinks resolved, as git prints them.
type gitRepo struct {
	gitDir, commonDir, top string
}

// discovery is the outcome of discoverGit.
type discovery int

const (
	// discoverNone: git finds no repository from the directory.
	discoverNone discovery = iota
	// discoverWorkTree: the directory is inside the work tree of the returned gitRepo.
	discoverWorkTree
	// discoverAskGit: the layout or the environment is one git handles by rules not
	// re-implemented here (bare repository, inside a git directory, core.worktree, a
	// discovery variable, another owner…); run git.
	discoverAskGit
)

// discoverGit finds the repository git would find from dir, with env as the environment a
// git subprocess would inherit. It reads files only and never runs git.
func discoverGit(dir string, env LookupEnv) (gitRepo, discovery) {
	for _, k := range gitDiscoveryEnv {
		if _, ok := env(k); ok {
			return gitRepo{}, discoverAskGit
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return gitRepo{}, discoverAskGit
	}
	// git starts from getcwd(), the physical directory.
	d, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return gitRepo{}, discoverAskGit
	}
	fi, err := os.Stat(d)
	if err != nil || !fi.IsDir() {
		return gitRepo{}, discoverAskGit
	}
	dev, ok := deviceOf(fi)
	if !ok {
		return gitRepo{}, discoverAskGit
	}
	for {
		dot := filepath.Join(d, ".git")
		if dfi, err := os.Lstat(dot); err == nil {
			return openDotGit(d, fi, dot, dfi)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return gitRepo{}, discoverAskGit
		}
		// A HEAD here may make d a git directory itself: a bare repository, or the start
		// directory is inside a .git directory. Either way there is no work tree to find.
		if _, err := os.Lstat(filepath.Join(d, "HEAD")); err == nil {
			return gitRepo{}, discoverAskGit
		}
		parent := filepath.Dir(d)
		if parent == d {
			return gitRepo{}, discoverNone
		}
		pfi, err := os.Stat(parent)
		if err != nil {
			return gitRepo{}, discoverAskGit
		}
		// git stops at a mount point unless GIT_DISCOVERY_ACROSS_FILESYSTEM is set.
		if pdev, ok := deviceOf(pfi); !ok || pdev != dev {
			if !ok {
				return gitRepo{}, discoverAskGit
			}
			return gitRepo{}, discoverNone
		}
		d, fi = parent, pfi
	}
}

// openDotGit reads the .git entry dot found in the work tree top (dot's info in dfi, top's
// in tfi): a directory is the git directory, a regular file names it ("gitdir: <path>",
// relative to the file's directory).
func openDotGit(top string, tfi fs.FileInfo, dot string, dfi fs.FileInfo) (gitRepo, discovery) {
	var gitDir string
	switch {
	case dfi.IsDir():
		// top is physical and .git is a real directory, so the path is already what git
		// prints.
		gitDir = dot
	case dfi.Mode().IsRegular():
		data, err := os.ReadFile(dot)
		if err != nil {
			return gitRepo{}, discoverAskGit
		}
		p, ok := parseGitFile(data)
		if !ok {
			return gitRepo{}, discoverAskGit
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(top, p)
		}
		if gitDir, err = filepath.EvalSymlinks(p); err != nil {
			return gitRepo{}, discoverAskGit
		}
	default:
		// A symlinked .git, or something stranger.
		return gitRepo{}, discoverAskGit
	}

	gfi, err := os.Stat(gitDir)
	if err != nil || !gfi.IsDir() || !validHead(filepath.Join(gitDir, "HEAD")) {
		return gitRepo{}, discoverAskGit
	}
	commonDir := gitDir
	switch data, err := os.ReadFile(filepath.Join(gitDir, "commondir")); {
	case err == nil:
		c := strings.TrimRight(string(data), "\r\n")
		if c == "" {
			return gitRepo{}, discoverAskGit
		}
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		if commonDir, err = filepath.EvalSymlinks(c); err != nil {
			return gitRepo{}, discoverAskGit
		}
	case !errors.Is(err, fs.ErrNotExist):
		return gitRepo{}, discoverAskGit
	}
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(commonDir, sub)); err != nil || !fi.IsDir() {
			return gitRepo{}, discoverAskGit
		}
	}
	// git refuses a repository whose work tree, .git file or git directory belongs to
	// another user unless safe.directory allows it: leave that decision to git.
	uid := os.Geteuid()
	for _, fi := range []fs.FileInfo{tfi, dfi, gfi} {
		if owner, ok := ownerOf(fi); !ok || owner != uid {
			return gitRepo{}, discoverAskGit
		}
	}
	// With extensions.worktreeConfig, git also reads the work tree's own config.worktree
	// (in its git directory): it must be plain too, and may not turn on more of itself.
	plain, perWorktree := plainConfig(filepath.Join(commonDir, "config"))
	if plain && perWorktree {
		var nested bool
		plain, nested = plainConfig(filepath.Join(gitDir, "config.worktree"))
		plain = plain && !nested
	}
	if !plain {
		return gitRepo{}, discoverAskGit
	}
	return gitRepo{gitDir: gitDir, commonDir: commonDir, top: top}, discoverWorkTree
}

// parseGitFile reads a .git file as git does: "gitdir: <path>" with trailing line ends
// removed.
func parseGitFile(data []byte) (string, bool) {
	s := strings.TrimRight(string(data), "\r\n")
	p, ok := strings.CutPrefix(s, "gitdir: ")
	if !ok || p == "" || strings.ContainsAny(p, "\n\x00") {
		return "", false
	}
	return p, true
}

// validHead reports whether path is a HEAD git accepts: a symbolic ref into refs/ or an
// object id. A symlinked HEAD (legacy) is left to git.
func validHead(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	s := strings.TrimRight(string(data), "\r\n")
	if ref, ok := strings.CutPrefix(s, "ref:"); ok {
		return strings.HasPrefix(strings.TrimLeft(ref, " \t"), "refs/")
	}
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	_, err = hex.DecodeString(s)
	return err == nil
}

// plainConfig reports whether the configuration file at path leaves discovery to the
// plain rules: no core.worktree (submodules, custom layouts), not core.bare, a repository
// format git supports, no includes that could say otherwise; and whether it turns on
// extensions.worktreeConfig (perWorktree: the work tree's config.worktree counts too).
// The scan is deliberately coarse: a key named worktree in any section, worktreeConfig
// outside [extensions], or a line it cannot read, counts as unusual, since a false alarm
// only costs a subprocess.
func plainConfig(path string) (plain, perWorktree bool) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return true, false
	}
	if err != nil {
		return false, false
	}
	section := ""
	for _, line := range bytes.Split(data, []byte("\n")) {
		s := strings.TrimSpace(string(line))
		if s == "" || s[0] == '#' || s[0] == ';' {
			continue
		}
		if strings.HasSuffix(s, `\`) {
			return false, false // a continued value: not worth parsing
		}
		if s[0] == '[' {
			end := strings.IndexByte(s, ']')
			if end < 0 {
				return false, false
			}
			name := s[1:end]
			if i := strings.IndexAny(name, " \t\""); i >= 0 {
				name = name[:i]
			}
			section = strings.ToLower(name)
			if section == "include" || section == "includeif" {
				return false, false
			}
			// git allows a key on the header's line.
			if s = strings.TrimSpace(s[end+1:]); s == "" || s[0] == '#' || s[0] == ';' {
				continue
			}
		}
		key, val, hasVal := strings.Cut(s, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		if i := strings.IndexAny(val, "#;"); i >= 0 {
			val = val[:i]
		}
		val = strings.ToLower(strings.Trim(strings.TrimSpace(val), `"`))
		switch {
		case section == "extensions" && key == "worktreeconfig":
			switch {
			case !hasVal || val == "true" || val == "yes" || val == "on" || val == "1":
				perWorktree = true
			case val == "false" || val == "no" || val == "off" || val == "0":
				perWorktree = false
			default:
				return false, false
			}
		case key == "worktree" || key == "worktreeconfig":
			return false, false
		case section == "core" && key == "bare" && val != "false" && val != "no" && val != "off" && val != "0":
			return false, false
		case section == "core" && key == "repositoryformatversion" && val != "0" && val != "1":
			return false, false
		}
	}
	return true, perWorktree
}

// deviceOf returns the device of a file, for git's stop at a mount point.
func deviceOf(fi fs.FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Dev), true // Dev is narrower than uint64 on some systems
}

// ownerOf returns the owner's uid of a file, for git's ownership check.
func ownerOf(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// gitRevParse is the git subprocess answer for dir: the repository `git rev-parse` finds,
// and false when git fails (not a repository, not a work tree, refused…). It is the
// fallback of discoverGit and the oracle its tests compare against.
// environ is git's environment (nil: the inherited one).
func gitRevParse(ctx context.Context, dir string, environ []string) (gitRepo, bool) {
	out, err := (&Git{Dir: dir, Environ: environ}).Output(ctx, "rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir", "--show-toplevel")
	if err != nil {
		return gitRepo{}, false
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) < 3 {
		return gitRepo{}, false
	}
	return gitRepo{gitDir: filepath.Clean(lines[0]), commonDir: filepath.Clean(lines[1]), top: filepath.Clean(lines[2])}, true
}

// mainCheckoutGit is the git subprocess answer of MainCheckout.
func mainCheckoutGit(ctx context.Context, dir string, environ []string) string {
	repo, ok := gitRevParse(ctx, dir, environ)
	if !ok {
		return dir
	}
	return mainOfRepo(dir, repo)
}

// inWorkTreeGit is the git subprocess answer of InWorkTree.
func inWorkTreeGit(ctx context.Context, dir string, environ []string) bool {
	out, err := (&Git{Dir: dir, Environ: environ}).Output(ctx, "rev-parse", "--is-inside-work-tree")
	return err == nil && strings.TrimSpace(out) == "true"
}

// MainCheckout maps a linked worktree directory to the main worktree (the directory that
// holds the common .git); any other directory, or a directory outside git, is returned as is.
// The repository is found by reading files (discoverGit); git itself runs only for layouts
// and environments discoverGit leaves to it. Discovery reads env, the caller's environment,
// and the git fallback runs in the environment derived from it (or the whole one ctx
// carries, [WithEnv]): both see the same GIT_* variables.
func MainCheckout(ctx context.Context, dir string, env LookupEnv) string {
	switch repo, found := discoverGit(dir, env); found {
	case discoverWorkTree:
		return mainOfRepo(dir, repo)
	case discoverNone:
		return dir
	}
	return mainCheckoutGit(ctx, dir, gitEnviron(ctx, env))
}

// mainOfRepo maps dir, inside the work tree of repo, to the same place in the main
// checkout; dir itself when repo is the main checkout.
func mainOfRepo(dir string, repo gitRepo) string {
	if repo.gitDir == repo.commonDir {
		return dir
	}
	main := filepath.Dir(repo.commonDir)
	// Keep the relative position of the workspace inside its checkout (a workspace may sit
	// in a subdirectory of the repository).
	if rel, err := filepath.Rel(repo.top, dir); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.Join(main, rel)
	}
	return main
}
