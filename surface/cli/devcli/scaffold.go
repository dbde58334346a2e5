package devcli

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/codegen/scaffold"
	"github.com/cmdbridge/cmdbridge/surface/cli"
)

func init() { cli.Register(scaffoldCommand) }

func scaffoldCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "scaffold",
		Usage: "generate a native tool (Input struct, handler skeleton, unit test) and its parity script for legacy commands",
		Description: "Writes nativetools/<domain>/<tool>.go and <tool>_test.go, testdata/script/parity/<tool>.txtar,\n" +
			"the domain's doc.go when the package is new, and regenerates nativetools/all/all.go.\n" +
			"Existing files are never overwritten without --force. The route stays adapter.",
		ArgsUsage: "COMMAND...",
		Flags: []ucli.Flag{
			&ucli.BoolFlag{Name: "force", Usage: "overwrite files that already exist"},
			&ucli.BoolFlag{Name: "keep-existing", Usage: "write only the files that do not exist yet (e.g. keep a hand-written parity script)"},
			&ucli.StringFlag{Name: "root", Usage: "directory the files are written under (default: the root of the Go module holding the current directory)"},
			&ucli.StringSliceFlag{Name: "commands", Usage: "go/packages pattern of the packages registering the commands, relative to the module root (repeatable; default: discovered)"},
			&ucli.StringFlag{Name: "registry", Usage: "native registry the tools register into, `IMPORTPATH.NAME` of a func(native.Tool) or a *native.Registry (default: the host's, else the module's one *native.Registry)"},
			&ucli.StringFlag{Name: "legacy-registry", Usage: "*legacy.Registry the generated tests look commands up in, `IMPORTPATH.NAME` (default: the one the registration reaches)"},
		},
		Action: func(c *ucli.Context) error {
			if c.NArg() == 0 {
				return usageError("scaffold takes at least one command name")
			}
			root := c.String("root")
			if root == "" {
				wd, err := os.Getwd()
				if err != nil {
					return fmt.Errorf("scaffold: %w", err)
				}
				if root, err = moduleRoot(wd); err != nil {
					return usageError("scaffold: %v (use --root)", err)
				}
			}
			if c.Bool("force") && c.Bool("keep-existing") {
				return usageError("scaffold: --force and --keep-existing exclude each other")
			}
			cfg := scaffold.Config{Root: root, Patterns: c.StringSlice("commands"), Commands: cli.HostOf(c).Commands,
				Registry: cmp.Or(c.String("registry"), cli.HostOf(c).ScaffoldRegistry), Legacy: c.String("legacy-registry"), Log: c.App.ErrWriter,
				Initialisms: cli.HostOf(c).Initialisms}
			files, err := scaffold.Plan(context.Background(), cfg, c.Args().Slice()...)
			if err != nil {
				return err // scaffold's errors name it
			}
			var wrote, kept []string
			if c.Bool("keep-existing") {
				wrote, kept, err = scaffold.WriteMissing(root, files)
			} else {
				wrote, err = scaffold.Write(root, files, c.Bool("force"))
			}
			if err != nil {
				return err
			}
			for _, p := range kept {
				fmt.Fprintln(c.App.Writer, "kept "+p)
			}
			for _, p := range wrote {
				fmt.Fprintln(c.App.Writer, "wrote "+p)
			}
			if len(wrote) == 0 {
				fmt.Fprintln(c.App.Writer, "nothing to write: every file is up to date")
			}
			return nil
		},
	}
}

// moduleRoot is the nearest directory at or above dir holding a go.mod.
func moduleRoot(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%s is not inside a Go module", dir)
		}
	}
}
