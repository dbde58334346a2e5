package devcli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/codegen/scaffold"
	"github.com/cmdbridge/cmdbridge/surface/cli"
)

type scaffoldOptions struct {
	Stdout, Stderr io.Writer
	Host           cli.Host

	Commands       []string // the commands to scaffold
	Force          bool
	KeepExisting   bool
	Root           string
	Patterns       []string // --commands
	Registry       string
	LegacyRegistry string
}

func newScaffoldCmd(runF func(*scaffoldOptions) error) *ucli.Command {
	opts := &scaffoldOptions{}
	return &ucli.Command{
		Name:  "scaffold",
		Usage: "generate a native tool (Input struct, handler skeleton, unit test) and its parity script for legacy commands",
		Description: "Writes nativetools/<domain>/<tool>.go and <tool>_test.go, testdata/script/parity/<tool>.txtar,\n" +
			"the domain's doc.go when the package is new, and regenerates nativetools/all/all.go.\n" +
			"Existing files are never overwritten without --force. The route stays adapter.",
		ArgsUsage: "COMMAND...",
		Flags: []ucli.Flag{
			&ucli.BoolFlag{Name: "force", Usage: "overwrite files that already exist", Destination: &opts.Force},
			&ucli.BoolFlag{Name: "keep-existing", Usage: "write only the files that do not exist yet (e.g. keep a hand-written parity script)", Destination: &opts.KeepExisting},
			&ucli.StringFlag{Name: "root", Usage: "directory the files are written under (default: the root of the Go module holding the current directory)", Destination: &opts.Root},
			&ucli.StringSliceFlag{Name: "commands", Usage: "go/packages pattern of the packages registering the commands, relative to the module root (repeatable; default: discovered)"},
			&ucli.StringFlag{Name: "registry", Usage: "native registry the tools register into, `IMPORTPATH.NAME` of a func(native.Tool) or a *native.Registry (default: the host's, else the module's one *native.Registry)", Destination: &opts.Registry},
			&ucli.StringFlag{Name: "legacy-registry", Usage: "*legacy.Registry the generated tests look commands up in, `IMPORTPATH.NAME` (default: the one the registration reaches)", Destination: &opts.LegacyRegistry},
		},
		Action: func(c *ucli.Context) error {
			if c.NArg() == 0 {
				return usageError("scaffold takes at least one command name")
			}
			opts.Stdout, opts.Stderr, opts.Host = c.App.Writer, c.App.ErrWriter, cli.HostOf(c)
			opts.Commands, opts.Patterns = c.Args().Slice(), c.StringSlice("commands")
			if runF != nil {
				return runF(opts)
			}
			return runScaffold(opts)
		},
	}
}

func runScaffold(opts *scaffoldOptions) error {
	root := opts.Root
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return fmt.Errorf("scaffold: %w", err)
		}
		if root, err = moduleRoot(wd); err != nil {
			return usageError("scaffold: %v (use --root)", err)
		}
	}
	if opts.Force && opts.KeepExisting {
		return usageError("scaffold: --force and --keep-existing exclude each other")
	}
	cfg := scaffold.Config{Root: root, Patterns: opts.Patterns, Commands: opts.Host.Commands,
		Registry: cmp.Or(opts.Registry, opts.Host.ScaffoldRegistry), Legacy: opts.LegacyRegistry, Log: opts.Stderr,
		Initialisms: opts.Host.Initialisms}
	files, err := scaffold.Plan(context.Background(), cfg, opts.Commands...)
	if err != nil {
		return err // scaffold's errors name it
	}
	var wrote, kept []string
	if opts.KeepExisting {
		wrote, kept, err = scaffold.WriteMissing(root, files)
	} else {
		wrote, err = scaffold.Write(root, files, opts.Force)
	}
	if err != nil {
		return err
	}
	for _, p := range kept {
		fmt.Fprintln(opts.Stdout, "kept "+p)
	}
	for _, p := range wrote {
		fmt.Fprintln(opts.Stdout, "wrote "+p)
	}
	if len(wrote) == 0 {
		fmt.Fprintln(opts.Stdout, "nothing to write: every file is up to date")
	}
	return nil
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
