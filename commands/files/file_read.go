package files

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io/fs"
	"os"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

func init() {
	commands.Register(commands.Command{Name: "file:read", Domain: "files",
		New: newFileReadApp, Main: convention.Main(newFileReadApp)})
}

func newFileReadApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "file:read",
		Usage:    "Print a workspace file, or a range of its lines, byte-exact",
		ReadOnly: true, Idempotent: true,
		Paths: map[string]string{"path": "read"},
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "path", Usage: "file to read", Required: true},
			convention.Int("start-line", "first line to print, 1-based", 0, convention.Bound(1), nil),
			convention.Int("end-line", "last line to print, inclusive", 0, convention.Bound(1), nil),
			convention.Int("max-size", "largest file size accepted, in bytes", 10485760, nil, nil),
			convention.Enum("encoding", "output encoding", "utf8", "utf8", "base64"),
		},
		Action: fileRead,
	})
}

func fileRead(c *convention.Call) error {
	start, end := c.Int("start-line"), c.Int("end-line")
	if c.IsSet("start-line") && c.IsSet("end-line") && start > end {
		return c.Failf(tool.CodeValidation, "--start-line %d is after --end-line %d", start, end)
	}
	abs, rel, err := confine(c, c.String("path"), false)
	if err != nil {
		return err
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return c.Failf(tool.CodeNotFound, "file %s not found", rel)
	case err != nil:
		return delivery.Errorf(tool.CodeIOError, "stat %s: %w", rel, err)
	case fi.IsDir():
		return c.Failf(tool.CodeValidation, "%s is a directory", rel)
	case fi.Size() > int64(c.Int("max-size")):
		return c.Fail(tool.CodeTooLarge, "file "+rel+" is larger than --max-size",
			map[string]any{"size": fi.Size(), "max_size": c.Int("max-size")})
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return delivery.Errorf(tool.CodeIOError, "read %s: %w", rel, err)
	}

	lines := splitLines(data)
	if !c.IsSet("start-line") {
		start = 1
	}
	if !c.IsSet("end-line") || end > len(lines) {
		end = len(lines)
	}
	var selected []byte
	if start <= end {
		selected = bytes.Join(lines[start-1:end], nil)
	}
	out := fileReadData{Path: rel, Encoding: c.Value("encoding"), Size: len(data),
		TotalLines: len(lines), StartLine: start, EndLine: end}
	if out.Encoding == "base64" {
		out.Content = base64.StdEncoding.EncodeToString(selected)
	} else {
		if c.JSON && !utf8.Valid(selected) {
			return c.Failf(tool.CodeValidation, "%s is not valid UTF-8; use --encoding base64", rel)
		}
		out.Content = string(selected)
	}
	return c.Print(out.Content, out)
}

// splitLines splits data after each "\n", keeping the terminators; a final line without
// one is still a line, and empty data has no lines.
func splitLines(data []byte) [][]byte {
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// fileReadData is file:read's JSON data. Size is the whole file's size in bytes.
type fileReadData struct {
	Path       string `json:"path"`
	Encoding   string `json:"encoding"`
	Content    string `json:"content"`
	Size       int    `json:"size"`
	TotalLines int    `json:"total_lines"`
	StartLine  int    `json:"start_line"`
	EndLine    int    `json:"end_line"`
}
