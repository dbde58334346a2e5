package files

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
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
	dir, _, err := rootOrCwd(c)
	if err != nil {
		return err
	}
	args := []string{"diff", "--no-color", "--no-ext-diff"}
	if c.Bool("staged") {
		args = append(args, "--cached")
	}
	switch {
	case c.Bool("name-only"):
		args = append(args, "--name-only")
	case c.Bool("stat"):
		args = append(args, "--stat")
	}
	data := gitDiffData{Staged: c.Bool("staged")}
	// --end-of-options: the ref is a revision, never an option (--output=FILE would
	// have git write FILE), whatever reaches the command.
	args = append(args, "--end-of-options")
	if ref := c.Arg("ref"); ref != "" {
		data.Ref = &ref
		args = append(args, ref)
	}
	args = append(args, "--")
	if c.IsSet("path") {
		_, rel, err := confine(c, c.String("path"), false)
		if err != nil {
			return err
		}
		args = append(args, rel)
	}
	// A scratch index: porcelain diff would otherwise write the refreshed index back.
	out, err := gitScratchIndex(c.Context(), dir, args...)
	if err != nil {
		return err
	}
	if c.Bool("name-only") {
		files := []string{}
		if s := strings.TrimSuffix(string(out), "\n"); s != "" {
			files = strings.Split(s, "\n")
		}
		return c.Print(string(out), gitDiffFiles{Ref: data.Ref, Staged: data.Staged, Files: files})
	}
	data.Diff = string(out)
	return c.Print(data.Diff, data)
}

// gitDiffData is git:diff's JSON data; ref is null without a positional.
type gitDiffData struct {
	Ref    *string `json:"ref"`
	Staged bool    `json:"staged"`
	Diff   string  `json:"diff"`
}

// gitDiffFiles is git:diff's JSON data with --name-only.
type gitDiffFiles struct {
	Ref    *string  `json:"ref"`
	Staged bool     `json:"staged"`
	Files  []string `json:"files"`
}
