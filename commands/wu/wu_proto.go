package wu

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:proto",
		New: newWUProtoApp, Main: convention.Main(newWUProtoApp)})
}

func newWUProtoApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:proto",
		Paths: map[string]string{"code_paths": "none"}, // recorded in the spec, never opened
		Usage: "Create a prototype WU with relaxed rules and claim it right away",
		Flags: []cli.Flag{
			convention.NonBlank(&cli.StringFlag{Name: "lane", Usage: "the lane of the prototype", Required: true}),
			convention.NonBlank(&cli.StringFlag{Name: "title", Usage: "the prototype's title", Required: true}),
			&cli.StringFlag{Name: "description", Usage: "what the prototype explores"},
			&cli.StringSliceFlag{Name: "code-paths", Usage: "a path the prototype touches (repeatable)"},
			&cli.StringSliceFlag{Name: "labels", Usage: "a label (repeatable, never split on commas)"},
			&cli.BoolFlag{Name: "branch-only", Usage: "claim in the main checkout instead of a worktree"},
		},
		Action: wuProto,
	})
}

func wuProto(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.WUProto(c.Context(), ws, c.Runtime(), ops.WUProtoInput{Lane: c.String("lane"),
		Title: c.String("title"), Description: c.String("description"), CodePaths: c.Strings("code-paths"),
		Labels: c.Strings("labels"), BranchOnly: c.Bool("branch-only")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.OpsResult(notes.Headline, data, data.Commit, "")
}
