package ops

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"io/fs"
	"os"
	"unicode/utf8"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/tool"
)

// FileReadMaxSize is --max-size's default: 10 MiB.
const FileReadMaxSize = 10485760

// FileReadInput is file:read's input. StartLine and EndLine are pointers because the
// command tells "absent" from any value: an absent start is line 1, an absent end is the
// last line, and only two given values are checked against each other.
type FileReadInput struct {
	// Path is the file to read, relative to the call's directory, confined to the
	// workspace root (or the directory itself outside a workspace).
	Path string
	// StartLine and EndLine (1-based, inclusive) select a range of lines; nil is absent.
	StartLine, EndLine *int
	// MaxSize is the largest file size accepted, in bytes; nil is FileReadMaxSize.
	MaxSize *int
	// Encoding is "utf8" (also for "") or "base64".
	Encoding string
	// JSON says the content will be serialised as a JSON string (--json, and always on the
	// native lane): then content that is not valid UTF-8 is a VALIDATION error.
	JSON bool
}

// Check rejects a start line after the end line (VALIDATION) and an unknown encoding
// (USAGE), before the path is resolved.
func (in FileReadInput) Check() error {
	if in.Encoding != "" && in.Encoding != "utf8" && in.Encoding != "base64" {
		return delivery.Errorf(tool.CodeUsage, "invalid value %q for --encoding: expected one of utf8, base64", in.Encoding)
	}
	if in.StartLine != nil && in.EndLine != nil && *in.StartLine > *in.EndLine {
		return delivery.Errorf(tool.CodeValidation, "--start-line %d is after --end-line %d", *in.StartLine, *in.EndLine)
	}
	return nil
}

// FileReadData is file:read's JSON data. Size is the whole file's size in bytes.
type FileReadData struct {
	Path       string `json:"path"`
	Encoding   string `json:"encoding"`
	Content    string `json:"content"`
	Size       int    `json:"size"`
	TotalLines int    `json:"total_lines"`
	StartLine  int    `json:"start_line"`
	EndLine    int    `json:"end_line"`
}

// FileRead is corpus §3.3 file:read for a call started in dir: the file (or its selected
// lines) byte-exact, or base64. It needs no workspace: outside one, paths are confined
// to dir. The text output is data.Content exactly (no newline added).
func FileRead(ctx context.Context, dir string, env gitrepo.LookupEnv, in FileReadInput) (FileReadData, Notes, error) {
	var notes Notes
	if err := in.Check(); err != nil {
		return FileReadData{}, notes, err
	}
	root, abs, rel, err := ConfineRoot(ctx, dir, env, in.Path, false)
	if err != nil {
		return FileReadData{}, notes, err
	}
	defer root.Close()
	afterConfine(abs)
	maxSize := FileReadMaxSize
	if in.MaxSize != nil {
		maxSize = *in.MaxSize
	}
	// Through the root only: a path changed since it was confined cannot lead outside.
	fi, err := root.Stat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return FileReadData{}, notes, delivery.Errorf(tool.CodeNotFound, "file %s not found", rel)
	case err != nil:
		return FileReadData{}, notes, delivery.RootError("stat", rel, err)
	case fi.IsDir():
		return FileReadData{}, notes, delivery.Errorf(tool.CodeValidation, "%s is a directory", rel)
	case fi.Size() > int64(maxSize):
		return FileReadData{}, notes, (&delivery.Error{Code: tool.CodeTooLarge, Message: "file " + rel + " is larger than --max-size"}).
			WithDetails(map[string]any{"size": fi.Size(), "max_size": maxSize})
	}
	data, err := root.ReadFile(rel)
	if err != nil {
		return FileReadData{}, notes, delivery.RootError("read", rel, err)
	}
	lines := splitLines(data)
	start, end := 1, len(lines)
	if in.StartLine != nil {
		start = *in.StartLine
	}
	if in.EndLine != nil && *in.EndLine <= len(lines) {
		end = *in.EndLine
	}
	var selected []byte
	if start <= end {
		selected = bytes.Join(lines[start-1:end], nil)
	}
	encoding := in.Encoding
	if encoding == "" {
		encoding = "utf8"
	}
	out := FileReadData{Path: rel, Encoding: encoding, Size: len(data), TotalLines: len(lines),
		StartLine: start, EndLine: end}
	if encoding == "base64" {
		out.Content = base64.StdEncoding.EncodeToString(selected)
	} else {
		if in.JSON && !utf8.Valid(selected) {
			return FileReadData{}, notes, delivery.Errorf(tool.CodeValidation, "%s is not valid UTF-8; use --encoding base64", rel)
		}
		out.Content = string(selected)
	}
	notes.Text = out.Content
	return out, notes, nil
}

// Confine resolves a path argument of a file command started in dir (corpus §3.3): it
// must stay inside the workspace root, or inside dir when there is no workspace.
func Confine(ctx context.Context, dir string, env gitrepo.LookupEnv, p string, write bool) (abs, rel string, err error) {
	root, err := confineBase(ctx, dir, env)
	if err != nil {
		return "", "", err
	}
	return delivery.Confine(root, dir, p, write)
}

// ConfineRoot is [Confine] that also opens the root the path was checked against
// (delivery.ConfineRoot): operate on rel through it. The caller closes the root.
func ConfineRoot(ctx context.Context, dir string, env gitrepo.LookupEnv, p string, write bool) (r *os.Root, abs, rel string, err error) {
	root, err := confineBase(ctx, dir, env)
	if err != nil {
		return nil, "", "", err
	}
	return delivery.ConfineRoot(root, dir, p, write)
}

// confineBase is the directory paths are confined to: the workspace root, or dir when
// there is no workspace.
func confineBase(ctx context.Context, dir string, env gitrepo.LookupEnv) (string, error) {
	root, _, err := delivery.FindRoot(ctx, dir, env)
	switch {
	case delivery.CodeOf(err) == tool.CodeNoWorkspace:
		return dir, nil
	case err != nil:
		return "", err // already a coded error with the command's message
	}
	return root, nil
}

// afterConfine runs between the check of a path and its first use; tests swap the path
// there to prove the use cannot escape.
var afterConfine = func(abs string) {}

// splitLines splits data after each "\n", keeping the terminators; a final line without
// one is still a line, and empty data has no lines.
func splitLines(data []byte) [][]byte {
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return lines
}
