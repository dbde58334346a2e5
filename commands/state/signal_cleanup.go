package state

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "signal:cleanup", Domain: "state",
		New: newSignalCleanupApp, Main: convention.Main(newSignalCleanupApp)})
}

func newSignalCleanupApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "signal:cleanup",
		Usage: "Prune old signals under the TTL policy (signals of in_progress and blocked WUs are kept)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Usage: "report what would be removed without writing"},
			convention.Duration("ttl", "remove read signals older than this (default: memory.signalCleanup.ttl)", ""),
			convention.Duration("unread-ttl", "remove unread signals older than this (default: memory.signalCleanup.unreadTtl)", ""),
			convention.Int("max-entries", "then keep at most this many signals, removing the oldest (default: memory.signalCleanup.maxEntries)", 0, nil, nil),
		},
		Destructive: true,
		Idempotent:  true,
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
		Action:      signalCleanup,
	})
}

func signalCleanup(c *convention.Call) error {
	ws, err := c.Workspace(ops.SignalCleanupKeys...)
	if err != nil {
		return err
	}
	in := ops.SignalCleanupInput{DryRun: c.Bool("dry-run")}
	if c.IsSet("ttl") {
		d, _ := convention.ParseDuration(c.Value("ttl"))
		in.TTL = &d
	}
	if c.IsSet("unread-ttl") {
		d, _ := convention.ParseDuration(c.Value("unread-ttl"))
		in.UnreadTTL = &d
	}
	if c.IsSet("max-entries") {
		n := c.Int("max-entries")
		in.MaxEntries = &n
	}
	data, notes, err := ops.SignalCleanup(c.Context(), ws, c.Runtime(), in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Result(notes.Headline, data)
}
