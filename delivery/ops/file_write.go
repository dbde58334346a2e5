package ops

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"path"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// FileWriteInput is file:write's input.
type FileWriteInput struct {
	// Path is the file to write, relative to the call's directory, confined to the
	// workspace root (or the directory itself outside a workspace); never under .git.
	Path string
	// Content is the bytes to write ("" writes an empty file), or their base64.
	Content string
	// Encoding is "utf8" (also for "") or "base64" (the shell has checked it).
	Encoding string
	// NoCreateDirs fails (NOT_FOUND) instead of creating a missing parent directory.
	NoCreateDirs bool
}

// FileWriteData is file:write's JSON data: the root-relative path, the bytes written and
// whether the file was new.
type FileWriteData struct {
	Path    string `json:"path"`
	Bytes   int    `json:"bytes"`
	Created bool   `json:"created"`
}

// FileWrite is corpus §3.3 file:write for a call started in dir: exactly the given bytes
// (base64-decoded with that encoding; invalid base64 is VALIDATION before the path is
// looked at), written atomically through the root the path was confined to, keeping an
// existing file's mode and using 0644 for a new one, parents created unless
// NoCreateDirs. A directory at the path is VALIDATION. It needs no workspace and never
// commits. Notes.Headline is the text headline.
func FileWrite(ctx context.Context, dir string, env gitrepo.LookupEnv, in FileWriteInput) (FileWriteData, Notes, error) {
	var notes Notes
	content := []byte(in.Content)
	if in.Encoding == "base64" {
		decoded, err := base64.StdEncoding.DecodeString(in.Content)
		if err != nil {
			return FileWriteData{}, notes, delivery.Errorf(tool.CodeValidation, "--content is not valid base64: %v", err)
		}
		content = decoded
	}
	root, _, rel, err := ConfineRoot(ctx, dir, env, in.Path, true)
	if err != nil {
		return FileWriteData{}, notes, err
	}
	defer root.Close()
	created := false
	switch fi, err := root.Stat(rel); {
	case errors.Is(err, fs.ErrNotExist):
		created = true
	case err != nil:
		return FileWriteData{}, notes, delivery.RootError("stat", rel, err)
	case fi.IsDir():
		return FileWriteData{}, notes, delivery.Errorf(tool.CodeValidation, "%s is a directory", rel)
	}
	if in.NoCreateDirs {
		if _, err := root.Stat(path.Dir(rel)); errors.Is(err, fs.ErrNotExist) {
			return FileWriteData{}, notes, delivery.Errorf(tool.CodeNotFound, "parent directory of %s does not exist", rel)
		}
	}
	if err := storage.WriteFileAtomicIn(root, rel, content, 0o644); err != nil {
		return FileWriteData{}, notes, delivery.RootError("write", rel, err)
	}
	notes.Headline = fmt.Sprintf("Wrote %d bytes to %s", len(content), rel)
	return FileWriteData{Path: rel, Bytes: len(content), Created: created}, notes, nil
}
