package flow

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
	commands.Register(legacy.Command{Name: "metrics:snapshot", Domain: "flow",
		New: newMetricsSnapshotApp, Main: convention.Main(newMetricsSnapshotApp)})
}

func newMetricsSnapshotApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "metrics:snapshot",
		Usage: "Write the metrics data to a JSON file (runtime state, never committed)",
		Flags: []cli.Flag{
			convention.Enum("type", "sections to include", delivery.MetricsAll, metricKinds...),
			convention.Int("days", "window length in days, ending now", 7, nil, nil),
			&cli.StringFlag{Name: "output", Usage: "file to write, relative to the current directory", Value: ops.MetricsSnapshotDefault},
			&cli.BoolFlag{Name: "dry-run", Usage: "compute and report, write nothing"},
		},
		Idempotent:  true,
		Paths:       map[string]string{"output": "write"},
		Destructive: true,
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run")), tool.WritesWhen(tool.IsUnset("output"))},
		Action:      metricsSnapshot,
	})
}

func metricsSnapshot(c *convention.Call) error {
	ws, err := open(c) // starts the call's journal: a failure rolls the writes back
	if err != nil {
		return err
	}
	cwd, err := c.Dir()
	if err != nil {
		return err
	}
	in := ops.MetricsSnapshotInput{Type: c.Value("type"), Days: c.Int("days"), Dir: cwd,
		DryRun: c.Bool("dry-run"), Now: c.Runtime().Now()}
	if c.IsSet("output") {
		out := c.String("output")
		in.Output = &out
	}
	data, notes, err := ops.MetricsSnapshot(c.Context(), ws, in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Result(notes.Headline, data)
}
