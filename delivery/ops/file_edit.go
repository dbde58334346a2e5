package ops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// FileEditInput is file:edit's input.
type FileEditInput struct {
	// Path is the file to edit, relative to the call's directory, confined to the
	// workspace root (or the directory itself outside a workspace); never under .git.
	Path string
	// Old is the exact bytes to replace (non-empty); New their replacement ("" deletes).
	Old, New string
	// ReplaceAll replaces every occurrence; without it Old must occur exactly once.
	ReplaceAll bool
}

// Check is what the command checks before it looks at the path: a non-empty old string
// that differs from the new one.
func (in FileEditInput) Check() error {
	if in.Old == "" {
		return delivery.Errorf(tool.CodeValidation, "--old-string must not be empty")
	}
	if in.Old == in.New {
		return delivery.Errorf(tool.CodeValidation, "--old-string and --new-string are the same")
	}
	return nil
}

// FileEditData is file:edit's JSON data: the root-relative path and how many occurrences
// were replaced.
type FileEditData struct {
	Path         string `json:"path"`
	Replacements int    `json:"replacements"`
}

// FileEdit is corpus §3.3 file:edit for a call started in dir: Old replaced by New, once
// (NOT_UNIQUE, with the count in the details, when Old occurs more often and ReplaceAll
// is not set) or everywhere, written atomically through the root the path was confined
// to. A missing file or a missing Old is NOT_FOUND, a directory VALIDATION. It needs no
// workspace and never commits. Notes.Headline is the text headline.
func FileEdit(ctx context.Context, dir string, env gitrepo.LookupEnv, in FileEditInput) (FileEditData, Notes, error) {
	var notes Notes
	if err := in.Check(); err != nil {
		return FileEditData{}, notes, err
	}
	root, _, rel, err := ConfineRoot(ctx, dir, env, in.Path, true)
	if err != nil {
		return FileEditData{}, notes, err
	}
	defer root.Close()
	data, err := root.ReadFile(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return FileEditData{}, notes, delivery.Errorf(tool.CodeNotFound, "file %s not found", rel)
	case err != nil:
		if fi, serr := root.Stat(rel); serr == nil && fi.IsDir() {
			return FileEditData{}, notes, delivery.Errorf(tool.CodeValidation, "%s is a directory", rel)
		}
		return FileEditData{}, notes, delivery.RootError("read", rel, err)
	}
	oldS, newS := []byte(in.Old), []byte(in.New)
	count := bytes.Count(data, oldS)
	switch {
	case count == 0:
		return FileEditData{}, notes, delivery.Errorf(tool.CodeNotFound, "--old-string not found in %s", rel)
	case count > 1 && !in.ReplaceAll:
		return FileEditData{}, notes, (&delivery.Error{Code: tool.CodeNotUnique,
			Message: fmt.Sprintf("--old-string occurs %d times in %s; use --replace-all or a longer string", count, rel)}).
			WithDetails(map[string]any{"count": count})
	}
	if err := storage.WriteFileAtomicIn(root, rel, bytes.ReplaceAll(data, oldS, newS), 0o644); err != nil {
		return FileEditData{}, notes, delivery.RootError("write", rel, err)
	}
	notes.Headline = fmt.Sprintf("Replaced %d occurrence(s) in %s", count, rel)
	return FileEditData{Path: rel, Replacements: count}, notes, nil
}
