package wu

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:infer-lane",
		New: newWUInferLaneApp, Main: convention.Main(newWUInferLaneApp)})
}

func newWUInferLaneApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "wu:infer-lane",
		Usage:    "Suggest a lane from code paths and text",
		ReadOnly: true, Idempotent: true,
		Paths: map[string]string{"paths": "none"}, // matched against lanes, never opened
		Flags: []cli.Flag{
			convention.WU("id", "use this WU's code_paths, title and description", false),
			&cli.StringSliceFlag{Name: "paths", Usage: "a path the work touches (repeatable)"},
			&cli.StringFlag{Name: "desc", Usage: "text describing the work"},
		},
		Rules: []convention.Rule{
			convention.OneOf("id", "paths", "desc"),
			convention.Exclusive("id", "paths"),
			convention.Exclusive("id", "desc"),
		},
		Action: wuInferLane,
	})
}

func wuInferLane(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.WUInferLane(c.Context(), ws, ops.WUInferLaneInput{ID: c.Value("id"),
		Paths: c.Strings("paths"), Desc: c.String("desc")})
	if err != nil {
		return err
	}
	return c.Result(notes.Text, data)
}
