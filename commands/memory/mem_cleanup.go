package memory

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
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
	if err := ws.Config.Check("software_delivery.memory.sessionTtl"); err != nil {
		return err
	}
	opts := delivery.CleanupOptions{TTL: ws.Config.SessionTTL, SessionID: c.String("session-id"), DryRun: c.Bool("dry-run")}
	if c.IsSet("ttl") {
		opts.TTL, _ = convention.ParseDuration(c.Value("ttl"))
	}
	// Report the lines cleanup will keep verbatim because it cannot read them.
	if _, err := loadMemory(c, ws); err != nil {
		return err
	}
	removed, kept, before, after, err := delivery.CleanupMemory(ws, c.Runtime(), opts)
	if err != nil {
		return err
	}
	return c.Result(fmt.Sprintf("Removed %d node(s), kept %d (%d → %d bytes)", len(removed), kept, before, after),
		memCleanupData{Removed: removed, Kept: kept, BytesBefore: before, BytesAfter: after, DryRun: opts.DryRun})
}

// memCleanupData is mem:cleanup's JSON data.
type memCleanupData struct {
	Removed     []string `json:"removed"`
	Kept        int      `json:"kept"`
	BytesBefore int64    `json:"bytes_before"`
	BytesAfter  int64    `json:"bytes_after"`
	DryRun      bool     `json:"dry_run"`
}
