package files

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "git:diff", Domain: "files",
		New: newGitDiffApp, Main: convention.Main(newGitDiffApp)})
}

func newGitDiffApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "git:diff",
		Usage:    "Show the working tree's or the index's changes, byte-exact",
		ReadOnly: true, Idempotent: true,
		Paths: map[string]string{"path": "read"},
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "staged", Usage: "diff the index instead of the working tree"},
			&cli.BoolFlag{Name: "name-only", Usage: "list changed file names only"},
			&cli.BoolFlag{Name: "stat", Usage: "print a diffstat"},
			&cli.StringFlag{Name: "path", Usage: "limit the diff to this path"},
		},
		Args:   []convention.Arg{{Name: "ref", Usage: "commit, branch or range to compare with (default: the index, or HEAD with staged)"}},
		Rules:  []convention.Rule{convention.Exclusive("stat", "name-only")},
		Action: gitDiff,
	})
}

func gitDiff(c *convention.Call) error {
	dir, err := c.Dir()
	if err != nil {
		return err
	}
	in := ops.GitDiffInput{Staged: c.Bool("staged"), NameOnly: c.Bool("name-only"), Stat: c.Bool("stat"), Ref: c.Arg("ref")}
	if c.IsSet("path") {
		path := c.String("path")
		in.Path = &path
	}
	data, notes, err := ops.GitDiff(c.Context(), dir, c.LookupEnv, in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Print(notes.Text, data)
}
