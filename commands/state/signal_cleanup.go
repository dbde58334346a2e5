package state

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
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
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	if err := ws.Config.Check("software_delivery.directories", "software_delivery.memory.signalCleanup"); err != nil {
		return err
	}
	p := defaultSignalPolicy(ws.Config)
	if c.IsSet("ttl") {
		p.TTL, _ = convention.ParseDuration(c.Value("ttl"))
	}
	if c.IsSet("unread-ttl") {
		p.UnreadTTL, _ = convention.ParseDuration(c.Value("unread-ttl"))
	}
	if c.IsSet("max-entries") {
		p.MaxEntries = c.Int("max-entries")
	}
	dryRun := c.Bool("dry-run")
	removed, kept, err := cleanupSignals(c, ws, p, dryRun)
	if err != nil {
		return err
	}
	return c.Result(fmt.Sprintf("Removed %d signal(s), kept %d", len(removed), kept),
		signalCleanupData{Removed: removed, Kept: kept, DryRun: dryRun})
}

// signalCleanupData is signal:cleanup's JSON data.
type signalCleanupData struct {
	Removed []string `json:"removed"`
	Kept    int      `json:"kept"`
	DryRun  bool     `json:"dry_run"`
}
