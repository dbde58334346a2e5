package journal

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/renameio/v2"
)

// Replay is what a replay found and did.
type Replay struct {
	// Found reports that a dead process left a journal.
	Found bool
	// Committed reports that its commit had landed: nothing was restored.
	Committed bool
	// Restored lists the paths put back, newest record first.
	Restored []string
}

// replay restores the journal at p, if any, and removes it.
func replay(ctx context.Context, p place, environ []string) (Replay, error) {
	hd, recs, err := read(p.file)
	if errors.Is(err, fs.ErrNotExist) {
		return Replay{}, nil
	}
	if err != nil {
		return Replay{}, fmt.Errorf("journal: %w", err)
	}
	r := Replay{Found: true}
	// Staging is the commit's first step: nothing but the commit moves HEAD after it.
	committing := slices.ContainsFunc(recs, func(r Record) bool { return r.Op == OpCommit || r.Op == OpStaged })
	if committing && head(p, environ) != hd.Head {
		r.Committed = true
	} else {
		if err := Restore(recs); err != nil {
			return r, fmt.Errorf("journal: replay: %w", err)
		}
		for _, rec := range slices.Backward(recs) {
			if rec.Path != "" {
				r.Restored = append(r.Restored, rec.Path)
			}
		}
		if err := unstage(ctx, hd.Root, recs, environ); err != nil {
			return r, fmt.Errorf("journal: replay: %w", err)
		}
	}
	if err := os.Remove(p.file); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return r, fmt.Errorf("journal: %w", err)
	}
	return r, nil
}

// Restore puts back the pre-images of recs, newest first. It goes on after a failure and
// returns the first.
func Restore(recs []Record) error {
	var first error
	for _, r := range slices.Backward(recs) {
		if err := restore(r); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func restore(r Record) error {
	switch r.Op {
	case OpAbsent:
		err := os.Remove(r.Path)
		if r.Dir {
			return nil // removed only when empty: a directory someone else filled stays
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("roll back %s: %w", r.Path, err)
		}
	case OpFile:
		dir := filepath.Dir(r.Path)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("roll back %s: %w", r.Path, err)
		}
		if err := renameio.WriteFile(r.Path, r.Data, r.Mode, renameio.WithTempDir(dir), renameio.WithStaticPermissions(r.Mode)); err != nil {
			return fmt.Errorf("roll back %s: %w", r.Path, err)
		}
		if err := syncDir(dir); err != nil {
			return fmt.Errorf("roll back %s: %w", r.Path, err)
		}
	case OpSize:
		f, err := os.OpenFile(r.Path, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("roll back %s: %w", r.Path, err)
		}
		defer f.Close()
		if err := f.Truncate(r.Size); err != nil {
			return fmt.Errorf("roll back %s: %w", r.Path, err)
		}
		if err := f.Sync(); err != nil {
			return fmt.Errorf("roll back %s: %w", r.Path, err)
		}
	}
	return nil
}

// unstage gives the paths git add staged (or was about to) their index entries from HEAD.
func unstage(ctx context.Context, root string, recs []Record, environ []string) error {
	var paths []string
	for _, r := range recs {
		if r.Op == OpStaged {
			paths = append(paths, r.Paths...)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	_, err := git(ctx, root, environ, append([]string{"reset", "-q", "--"}, paths...)...)
	return err
}

func git(ctx context.Context, dir string, environ []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = environ
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

// head is the commit HEAD names, read from the repository's files ("" outside a
// repository or before the first commit). A reftable repository is asked through git.
func head(p place, environ []string) string {
	if p.gitdir == "" {
		return ""
	}
	if _, err := os.Stat(filepath.Join(p.common, "reftable")); err == nil {
		out, _ := git(context.Background(), p.root, environ, "rev-parse", "-q", "--verify", "HEAD")
		return strings.TrimSpace(out)
	}
	b, err := os.ReadFile(filepath.Join(p.gitdir, "HEAD"))
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(string(b))
	ref, symbolic := strings.CutPrefix(s, "ref:")
	if !symbolic {
		return s
	}
	ref = strings.TrimSpace(ref)
	for _, d := range []string{p.gitdir, p.common} {
		if b, err := os.ReadFile(filepath.Join(d, filepath.FromSlash(ref))); err == nil {
			return strings.TrimSpace(string(b))
		}
	}
	f, err := os.Open(filepath.Join(p.common, "packed-refs"))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if sha, name, ok := strings.Cut(sc.Text(), " "); ok && name == ref {
			return sha
		}
	}
	return ""
}
