package memory

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "mem:cleanup", Domain: "memory",
		New: newMemCleanupApp, Main: convention.Main(newMemCleanupApp)})
}

func newMemCleanupApp() *cli.App {
	return convention.App(convention.Spec{
		Name:        "mem:cleanup",
		Usage:       "Remove ephemeral, deleted, summarised and expired memory nodes and compact memory.jsonl",
		Destructive: true,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Usage: "report what would be removed without writing"},
			convention.Duration("ttl", "remove non-project nodes older than this (default: memory.sessionTtl)", ""),
			&cli.StringFlag{Name: "session-id", Usage: "remove the session-lifecycle nodes of this session"},
		},
		Effects: []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
		Action:  memCleanup,
	})
}

func memCleanup(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	if err := ws.Config.Check(ops.MemCleanupKeys...); err != nil {
		return err
	}
	in := ops.MemCleanupInput{SessionID: c.String("session-id"), DryRun: c.Bool("dry-run")}
	if c.IsSet("ttl") {
		ttl, _ := convention.ParseDuration(c.Value("ttl"))
		in.TTL = &ttl
	}
	data, notes, err := ops.MemCleanup(c.Context(), ws, c.Runtime(), in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Result(notes.Headline, data)
}
