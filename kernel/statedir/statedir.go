package statedir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// EnvVar names the environment variable that overrides the state directory.
const EnvVar = "CMDBRIDGE_STATE_DIR"

// LegacyDir is where cmdbridge kept its state inside the workspace before.
const LegacyDir = ".cmdbridge"

// Names are the entries of a state directory (and of LegacyDir, which Migrate moves);
// the workspace's own files beside them in LegacyDir (config.yaml) are not state.
var Names = []string{Evidence, Events, TokenKey, Parity}

// Dir is the state of one workspace.
type Dir struct {
	// Root is the state directory.
	Root string
	// Git lists the repository's own directories (the worktree's .git entry, its gitdir
	// and the common dir), empty outside a repository.
	Git []string
}

// Entries of the state directory.
const (
	Evidence = "evidence"
	Events   = "events"
	TokenKey = "token.key"
	Parity   = "parity"
)

// Path returns an entry of the state directory.
func (d Dir) Path(entry string) string { return filepath.Join(d.Root, entry) }

// Protected returns the directories no tool path may reach: the state directory and the
// repository's own.
func (d Dir) Protected() []string { return append([]string{d.Root}, d.Git...) }

// Ensure creates the state directory (mode 0700) when it is missing.
func (d Dir) Ensure() error {
	if err := os.MkdirAll(d.Root, 0o700); err != nil {
		return fmt.Errorf("state dir: %w", err)
	}
	return nil
}

// Find returns the state directory of workspace. lookup reads the environment (only
// CMDBRIDGE_STATE_DIR); nil means none.
func Find(workspace string, lookup func(string) (string, bool)) (Dir, error) {
	if lookup == nil {
		lookup = func(string) (string, bool) { return "", false }
	}
	ws, err := filepath.Abs(workspace)
	if err != nil {
		return Dir{}, fmt.Errorf("state dir: %w", err)
	}
	if real, err := filepath.EvalSymlinks(ws); err == nil {
		ws = real
	}
	var d Dir
	entry, gitdir, common, found := repository(ws)
	if found {
		d.Git = uniq(entry, gitdir, common)
	}
	switch v, _ := lookup(EnvVar); {
	case v != "":
		if !filepath.IsAbs(v) {
			return Dir{}, fmt.Errorf("state dir: %s=%q is not an absolute path", EnvVar, v)
		}
		d.Root = filepath.Clean(v)
	case found:
		d.Root = filepath.Join(common, "cmdbridge")
	default:
		// No repository: nothing can commit the state, and the workspace is the only
		// place that is surely this workspace's.
		d.Root = filepath.Join(ws, LegacyDir)
	}
	return d, nil
}

// Repository returns the git directory of the worktree holding dir (its .git
// directory, or the one its .git file names) and the repository's common dir, found
// by reading files as [Find] does; ok is false outside a repository.
func Repository(dir string) (gitdir, common string, ok bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", false
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	_, gitdir, common, ok = repository(abs)
	return gitdir, common, ok
}

// repository finds the git repository holding dir: the .git entry of its top level,
// the gitdir it names, and the common dir.
func repository(dir string) (entry, gitdir, common string, ok bool) {
	for d := dir; ; {
		p := filepath.Join(d, ".git")
		if fi, err := os.Stat(p); err == nil {
			switch {
			case fi.IsDir():
				gitdir = p
			case fi.Mode().IsRegular():
				data, err := os.ReadFile(p)
				if err != nil {
					return "", "", "", false
				}
				target, found := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
				if !found {
					return "", "", "", false
				}
				gitdir = strings.TrimSpace(target)
				if !filepath.IsAbs(gitdir) {
					gitdir = filepath.Join(d, gitdir)
				}
			}
			if gitdir != "" {
				common = gitdir
				if data, err := os.ReadFile(filepath.Join(gitdir, "commondir")); err == nil {
					common = strings.TrimSpace(string(data))
					if !filepath.IsAbs(common) {
						common = filepath.Join(gitdir, common)
					}
				}
				return p, realpath(gitdir), realpath(common), true
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", "", false
		}
		d = parent
	}
}

func realpath(p string) string {
	p = filepath.Clean(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

func uniq(list ...string) []string {
	var out []string
	for _, s := range list {
		if s != "" && !contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Migrate moves the state entries an older cmdbridge kept under
// <workspace>/.cmdbridge into d (creating it). It returns the entries it moved and,
// as an error, those it could not (an entry already present in d is never
// overwritten: the old copy stays and is reported).
func Migrate(workspace string, d Dir) (moved []string, err error) {
	// A relative workspace ("." for the current directory) must compare equal to the
	// absolute root Find gives for the same place.
	if abs, err := filepath.Abs(workspace); err == nil {
		workspace = abs
	}
	legacy := filepath.Join(workspace, LegacyDir)
	if realpath(legacy) == realpath(d.Root) {
		return nil, nil
	}
	var errs []error
	for _, name := range Names {
		from := filepath.Join(legacy, name)
		if _, err := os.Lstat(from); err != nil {
			continue
		}
		if err := d.Ensure(); err != nil {
			return moved, err
		}
		to := d.Path(name)
		if _, err := os.Lstat(to); err == nil {
			errs = append(errs, fmt.Errorf("state dir: %s and %s both exist; keeping %s, the old one is left as it is", from, to, to))
			continue
		}
		if err := os.Rename(from, to); err != nil {
			errs = append(errs, fmt.Errorf("state dir: move %s to %s: %w", from, to, err))
			continue
		}
		moved = append(moved, name)
	}
	return moved, errors.Join(errs...)
}
