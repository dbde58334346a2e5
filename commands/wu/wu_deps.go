package wu

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:deps",
		New: newWUDepsApp, Main: convention.Main(newWUDepsApp)})
}

func newWUDepsApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "wu:deps",
		Usage:    "Show the dependency tree of a WU (upstream blocked_by, downstream blocks)",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.WU("id", "the WU (or give it as the positional ID)", false),
			convention.Enum("direction", "which side of the tree to show", "both", ops.WUDepsDirections...),
			convention.Int("depth", "levels to expand", 3, convention.Bound(1), nil),
		},
		Args:   []convention.Arg{{Name: "id"}},
		Action: wuDeps,
	})
}

func wuDeps(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	id := c.Value("id")
	if id == "" {
		id = c.Arg("id")
	}
	in := ops.WUDepsInput{ID: id, Direction: c.Value("direction"), Depth: c.Int("depth")}
	if id == "" { // the checkout's lane branch names the WU
		if in.Dir, err = c.Dir(); err != nil {
			return err
		}
	}
	data, notes, err := ops.WUDeps(c.Context(), ws, in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Print(notes.Text, data)
}
