package initiative

import (
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "orchestrate:monitor", Domain: "initiative",
		New: newOrchestrateMonitorApp, Main: convention.Main(newOrchestrateMonitorApp)})
}

func newOrchestrateMonitorApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "orchestrate:monitor",
		Usage: "Report pending and stuck delegations, stale locks and recent signals; --recover times out stuck ones",
		Flags: []cli.Flag{
			convention.Int("threshold", "minutes after which a pending delegation is stuck", 30, convention.Bound(0), nil),
			&cli.StringFlag{Name: "since", Usage: "signals since: a duration (30m, 7d), a YYYY-MM-DD date or an RFC 3339 timestamp", Value: "30m"},
			convention.WU("wu", "only items whose parent or target is this WU", false),
			&cli.BoolFlag{Name: "signals-only", Usage: "report signals only"},
			&cli.BoolFlag{Name: "recover", Usage: "time out stuck delegations and signal their targets"},
			&cli.BoolFlag{Name: "dry-run", Usage: "with --recover, report the actions without taking them"},
		},
		Effects: []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("recover")), tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
		Action:  orchestrateMonitor,
	})
}

// orchestrateMonitor is the shell around ops.OrchestrateMonitor.
func orchestrateMonitor(c *convention.Call) error {
	if _, err := ops.MonitorSince(c.String("since"), c.Runtime().Now()); err != nil {
		return err
	}
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.OrchestrateMonitor(c.Context(), ws, c.Runtime(), ops.OrchestrateMonitorInput{
		Threshold: time.Duration(c.Int("threshold")) * time.Minute, Since: c.String("since"), WU: c.Value("wu"),
		SignalsOnly: c.Bool("signals-only"), Recover: c.Bool("recover"), DryRun: c.Bool("dry-run")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Print(notes.Text, data)
}
