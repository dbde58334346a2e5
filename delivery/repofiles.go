package delivery

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/cmdbridge/cmdbridge/tool"
)

// RepoFiles lists the repository's files as root-relative slash paths, sorted: `git
// ls-files` inside a work tree, otherwise a walk that skips .git, the worktrees directory
// and .lumenflow (corpus §3.2 lane:health).
func RepoFiles(ctx context.Context, ws *Workspace, rt *Runtime) ([]string, error) {
	if inWorkTreeOf(ctx, rt, ws.Root) {
		out, err := NewGit(ws.Root, rt).Output(ctx, "ls-files", "-z")
		if err != nil {
			return nil, Errorf(tool.CodeGitError, "git ls-files: %w", err)
		}
		var files []string
		for _, f := range strings.Split(out, "\x00") {
			if f != "" {
				files = append(files, f)
			}
		}
		sort.Strings(files)
		return files, nil
	}
	worktrees := strings.TrimSuffix(ws.Config.WorktreesDir, "/")
	var files []string
	err := filepath.WalkDir(ws.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrPermission) {
				return nil
			}
			return err
		}
		rel := ws.Rel(p)
		if d.IsDir() {
			if rel == ".git" || rel == ".lumenflow" || rel == worktrees {
				return filepath.SkipDir
			}
			return nil
		}
		files = append(files, rel)
		return nil
	})
	if err != nil {
		return nil, Errorf(tool.CodeIOError, "list files: %w", err)
	}
	sort.Strings(files)
	return files, nil
}

// MatchGlobs reports whether file matches one of the globs (doublestar, case-insensitive,
// corpus §1.14).
func MatchGlobs(globs []string, file string) bool {
	lf := strings.ToLower(file)
	for _, g := range globs {
		if ok, _ := doublestar.Match(strings.ToLower(g), lf); ok {
			return true
		}
	}
	return false
}
