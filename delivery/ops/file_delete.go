package ops

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/tool"
)

// FileDeleteInput is file:delete's input.
type FileDeleteInput struct {
	// Path is the file or directory to delete, relative to the call's directory,
	// confined to the workspace root (or the directory itself outside a workspace);
	// never the root itself, never under .git.
	Path string
	// Recursive allows deleting a directory and everything in it.
	Recursive bool
	// Force makes a missing path a no-op instead of NOT_FOUND.
	Force bool
}

// FileDeleteData is file:delete's JSON data: the root-relative path, whether something
// was deleted, and whether it was a directory.
type FileDeleteData struct {
	Path         string `json:"path"`
	Deleted      bool   `json:"deleted"`
	WasDirectory bool   `json:"was_directory"`
}

// FileDelete is corpus §3.3 file:delete for a call started in dir: the file, or with
// Recursive the directory, removed through the root the path was confined to. A symlink
// is deleted itself, never what it points to. A directory without Recursive and the root
// are VALIDATION; a missing path is NOT_FOUND unless Force (then nothing is deleted). It
// needs no workspace and never commits. Notes.Headline is the text headline.
func FileDelete(ctx context.Context, dir string, env gitrepo.LookupEnv, in FileDeleteInput) (FileDeleteData, Notes, error) {
	var notes Notes
	root, rel, err := deleteTarget(ctx, dir, env, in.Path)
	if err != nil {
		return FileDeleteData{}, notes, err
	}
	defer root.Close()
	if rel == "." {
		return FileDeleteData{}, notes, delivery.Errorf(tool.CodeValidation, "the workspace root cannot be deleted")
	}
	fi, err := root.Lstat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist) && in.Force:
		notes.Headline = "Nothing to delete at " + rel
		return FileDeleteData{Path: rel}, notes, nil
	case errors.Is(err, fs.ErrNotExist):
		return FileDeleteData{}, notes, delivery.Errorf(tool.CodeNotFound, "%s not found", rel)
	case err != nil:
		return FileDeleteData{}, notes, delivery.RootError("stat", rel, err)
	case fi.IsDir() && !in.Recursive:
		return FileDeleteData{}, notes, delivery.Errorf(tool.CodeValidation, "%s is a directory; use --recursive", rel)
	}
	if fi.IsDir() {
		err = root.RemoveAll(rel)
	} else {
		err = root.Remove(rel)
	}
	if err != nil {
		return FileDeleteData{}, notes, delivery.RootError("delete", rel, err)
	}
	notes.Headline = "Deleted " + rel
	return FileDeleteData{Path: rel, Deleted: true, WasDirectory: fi.IsDir()}, notes, nil
}

// deleteTarget confines p and returns what to remove, as a path relative to the opened
// root it was confined to: a symlink itself (whose parent is confined), never the file it
// points to; otherwise the confined path. The caller closes the root.
func deleteTarget(ctx context.Context, dir string, env gitrepo.LookupEnv, p string) (root *os.Root, rel string, err error) {
	lexical := p
	if !filepath.IsAbs(lexical) {
		lexical = filepath.Join(dir, p)
	}
	lexical = filepath.Clean(lexical)
	if fi, lerr := os.Lstat(lexical); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		root, _, parentRel, err := ConfineRoot(ctx, dir, env, filepath.Dir(lexical), true)
		if err != nil {
			return nil, "", err
		}
		rel = path.Join(parentRel, filepath.Base(lexical))
		if rel == ".git" {
			root.Close()
			return nil, "", delivery.Errorf(tool.CodePathOutsideWorkspace, "path %s is inside .git and cannot be modified", p)
		}
		return root, rel, nil
	}
	root, _, rel, err = ConfineRoot(ctx, dir, env, p, true)
	return root, rel, err
}
