package ops

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// MetricsSnapshotDefault is where metrics:snapshot writes unless --output says
// otherwise, relative to the workspace root wherever the command runs.
const MetricsSnapshotDefault = ".lumenflow/snapshots/metrics-latest.json"

// MetricsSnapshotInput is metrics:snapshot's input.
type MetricsSnapshotInput struct {
	// Type is the sections computed (metrics's Kind; its check is the shell's).
	Type string
	// Days is the window length in days, ending at Now.
	Days int
	// Output is the file to write, relative to Dir; nil is MetricsSnapshotDefault,
	// relative to the workspace root.
	Output *string
	// Dir is the call's directory.
	Dir string
	// DryRun computes and reports without writing.
	DryRun bool
	// Now is the end of the window and the report's generated_at.
	Now time.Time
}

// MetricsSnapshotData is metrics:snapshot's JSON data: the root-relative path written (or
// that would be), and the metrics data written.
type MetricsSnapshotData struct {
	Path     string           `json:"path"`
	DryRun   bool             `json:"dry_run"`
	Snapshot delivery.Metrics `json:"snapshot"`
}

// MetricsSnapshot is corpus §3.7 metrics:snapshot: the output path confined to the
// workspace (PATH_OUTSIDE_WORKSPACE, before anything is computed), then the metrics data
// (ops.Metrics, whose warnings it keeps) written as 2-space JSON with a final newline,
// atomically, creating parent directories. It is runtime state and never committed, even
// at a committable path. A dry run writes nothing. Run it in the call's journal: a
// failure leaves no directory it created behind. Notes.Headline is the text headline.
func MetricsSnapshot(ctx context.Context, ws *delivery.Workspace, in MetricsSnapshotInput) (MetricsSnapshotData, Notes, error) {
	out, cwd := MetricsSnapshotDefault, ws.Root
	if in.Output != nil {
		out, cwd = *in.Output, in.Dir
	}
	abs, rel, err := delivery.Confine(ws.Root, cwd, out, true)
	if err != nil {
		return MetricsSnapshotData{}, Notes{}, err
	}
	m, notes, err := Metrics(ctx, ws, MetricsInput{Kind: in.Type, Days: in.Days, Now: in.Now})
	if err != nil {
		return MetricsSnapshotData{}, notes, err
	}
	if !in.DryRun {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(m); err != nil {
			return MetricsSnapshotData{}, notes, delivery.Errorf(tool.CodeInternal, "encode snapshot: %w", err)
		}
		if err := storage.JournalMkdir(filepath.Dir(abs)); err != nil {
			return MetricsSnapshotData{}, notes, err
		}
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return MetricsSnapshotData{}, notes, delivery.Errorf(tool.CodeIOError, "create %s: %w", filepath.ToSlash(filepath.Dir(rel)), err)
		}
		if err := storage.WriteFileAtomic(abs, buf.Bytes(), 0o644); err != nil {
			return MetricsSnapshotData{}, notes, delivery.Errorf(tool.CodeIOError, "write %s: %w", rel, err)
		}
	}
	notes.Headline = "Snapshot written to " + rel
	if in.DryRun {
		notes.Headline = "Would write " + rel
	}
	return MetricsSnapshotData{Path: rel, DryRun: in.DryRun, Snapshot: m}, notes, nil
}
