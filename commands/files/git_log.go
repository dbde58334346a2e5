package files

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "git:log", Domain: "files",
		New: newGitLogApp, Main: convention.Main(newGitLogApp)})
}

func newGitLogApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "git:log",
		Usage:    "List commits, newest first",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.Int("max-count", "most commits to list", 20, nil, nil),
			&cli.StringFlag{Name: "since", Usage: "only commits after this date (any date form git log accepts)"},
			&cli.StringFlag{Name: "author", Usage: "only commits whose author matches"},
			&cli.BoolFlag{Name: "oneline", Usage: "print <sha7> <subject> per commit"},
		},
		Args:   []convention.Arg{{Name: "ref", Usage: "commit, branch or range whose history to list (default: HEAD)"}},
		Action: gitLog,
	})
}

func gitLog(c *convention.Call) error {
	dir, err := c.Dir()
	if err != nil {
		return err
	}
	in := ops.GitLogInput{MaxCount: c.Int("max-count"), Oneline: c.Bool("oneline"), Ref: c.Arg("ref")}
	if c.IsSet("since") {
		since := c.String("since")
		in.Since = &since
	}
	if c.IsSet("author") {
		author := c.String("author")
		in.Author = &author
	}
	data, notes, err := ops.GitLog(c.Context(), dir, c.LookupEnv, in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Print(notes.Text, data)
}
