package files

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"path"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "file:write", Domain: "files",
		New: newFileWriteApp, Main: convention.Main(newFileWriteApp)})
}

func newFileWriteApp() *cli.App {
	return convention.App(convention.Spec{
		Name:        "file:write",
		Usage:       "Write exactly the given bytes to a workspace file, atomically",
		Destructive: true, Idempotent: true,
		Paths: map[string]string{"path": "write"},
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "path", Usage: "file to write", Required: true},
			&cli.StringFlag{Name: "content", Usage: "the bytes to write (may be empty)", Required: true},
			convention.Enum("encoding", "encoding of --content", "utf8", "utf8", "base64"),
			&cli.BoolFlag{Name: "no-create-dirs", Usage: "fail instead of creating missing parent directories"},
		},
		Action: fileWrite,
	})
}

func fileWrite(c *convention.Call) error {
	content := []byte(c.String("content"))
	if c.Value("encoding") == "base64" {
		decoded, err := base64.StdEncoding.DecodeString(c.String("content"))
		if err != nil {
			return c.Failf(tool.CodeValidation, "--content is not valid base64: %v", err)
		}
		content = decoded
	}
	root, rel, err := confineRoot(c, c.String("path"), true)
	if err != nil {
		return err
	}
	defer root.Close()
	created := false
	switch fi, err := root.Stat(rel); {
	case errors.Is(err, fs.ErrNotExist):
		created = true
	case err != nil:
		return delivery.RootError("stat", rel, err)
	case fi.IsDir():
		return c.Failf(tool.CodeValidation, "%s is a directory", rel)
	}
	if c.Bool("no-create-dirs") {
		if _, err := root.Stat(path.Dir(rel)); errors.Is(err, fs.ErrNotExist) {
			return c.Failf(tool.CodeNotFound, "parent directory of %s does not exist", rel)
		}
	}
	if err := delivery.WriteFileAtomicIn(root, rel, content, 0o644); err != nil {
		return delivery.RootError("write", rel, err)
	}
	return c.Result(fmt.Sprintf("Wrote %d bytes to %s", len(content), rel),
		fileWriteData{Path: rel, Bytes: len(content), Created: created})
}

// fileWriteData is file:write's JSON data.
type fileWriteData struct {
	Path    string `json:"path"`
	Bytes   int    `json:"bytes"`
	Created bool   `json:"created"`
}
