package memory

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "mem:delete", Domain: "memory",
		New: newMemDeleteApp, Main: convention.Main(newMemDeleteApp)})
}

func newMemDeleteApp() *cli.App {
	return convention.App(convention.Spec{
		Name:        "mem:delete",
		Usage:       "Soft-delete memory nodes by id, tag or age",
		Destructive: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.Repeated("id", "node id mem-xxxx (repeatable)", "memory id like mem-1a2b", delivery.MemoryIDPattern),
			&cli.StringFlag{Name: "tag", Usage: "delete the nodes with this tag"},
			convention.Duration("older-than", "delete the nodes created longer ago than this", ""),
			&cli.BoolFlag{Name: "dry-run", Usage: "report without writing"},
		},
		Rules:   []convention.Rule{convention.OneOf("id", "tag", "older-than")},
		Effects: []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
		Action:  memDelete,
	})
}

func memDelete(c *convention.Call) error {
	age, byAge := convention.ParseDuration(c.Value("older-than"))
	in := ops.MemDeleteInput{IDs: c.Strings("id"), Tag: c.String("tag"), OlderThan: age, ByAge: byAge,
		DryRun: c.Bool("dry-run")}
	// TODO(convention): a repeatable MEM flag type would report a bad id before the action.
	if err := in.Check(); err != nil {
		return err
	}
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	data, notes, err := ops.MemDelete(c.Context(), ws, c.Runtime(), in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Result(notes.Headline, data)
}
