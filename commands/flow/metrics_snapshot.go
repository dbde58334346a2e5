package flow

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "metrics:snapshot", Domain: "flow",
		New: newMetricsSnapshotApp, Main: convention.Main(newMetricsSnapshotApp)})
}

// defaultSnapshot is where metrics:snapshot writes unless --output says otherwise.
const defaultSnapshot = ".lumenflow/snapshots/metrics-latest.json"

func newMetricsSnapshotApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "metrics:snapshot",
		Usage: "Write the metrics data to a JSON file (runtime state, never committed)",
		Flags: []cli.Flag{
			convention.Enum("type", "sections to include", delivery.MetricsAll, metricKinds...),
			convention.Int("days", "window length in days, ending now", 7, nil, nil),
			&cli.StringFlag{Name: "output", Usage: "file to write, relative to the current directory", Value: defaultSnapshot},
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
	ws, err := open(c)
	if err != nil {
		return err
	}
	cwd, err := c.Dir()
	if err != nil {
		return err
	}
	out := c.String("output")
	if !c.IsSet("output") {
		cwd = ws.Root // the default is relative to the workspace root wherever the command runs
	}
	abs, rel, err := delivery.Confine(ws.Root, cwd, out, true)
	if err != nil {
		return err
	}
	m, err := computeMetrics(c, c.Value("type"), c.Int("days"))
	if err != nil {
		return err
	}
	dry := c.Bool("dry-run")
	if !dry {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(m); err != nil {
			return delivery.Errorf(tool.CodeInternal, "encode snapshot: %w", err)
		}
		delivery.JournalMkdir(filepath.Dir(abs))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return delivery.Errorf(tool.CodeIOError, "create %s: %w", filepath.ToSlash(filepath.Dir(rel)), err)
		}
		if err := delivery.WriteFileAtomic(abs, buf.Bytes(), 0o644); err != nil {
			return delivery.Errorf(tool.CodeIOError, "write %s: %w", rel, err)
		}
	}
	headline := "Snapshot written to " + rel
	if dry {
		headline = "Would write " + rel
	}
	return c.Result(headline, snapshotData{Path: rel, DryRun: dry, Snapshot: m})
}

// snapshotData is metrics:snapshot's JSON data.
type snapshotData struct {
	Path     string           `json:"path"`
	DryRun   bool             `json:"dry_run"`
	Snapshot delivery.Metrics `json:"snapshot"`
}
