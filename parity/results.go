package parity

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// ResultsSchemaVersion is the schema_version written in every results file.
// Readers refuse other versions rather than guess at their meaning.
const ResultsSchemaVersion = 1

// Result status values of a ToolResult.
const (
	StatusPass  = "pass"  // every compared lane agreed
	StatusFail  = "fail"  // the script ran and found a difference (or failed an assertion)
	StatusError = "error" // the script could not run (missing file, bad script, setup failure)
)

// Results is the file `cmdbridge parity` writes after every run (by default
// .cmdbridge/parity/last.json) and `cmdbridge status` reads.
type Results struct {
	SchemaVersion int          `json:"schema_version"`
	RunAt         time.Time    `json:"run_at"`
	Tools         []ToolResult `json:"tools"`
}

// ToolResult is the outcome of one tool's parity script.
type ToolResult struct {
	// Tool is the canonical tool name ("wu:status").
	Tool string `json:"tool"`
	// Script is the script path as given to the runner, slash-separated.
	Script string `json:"script"`
	// Status is StatusPass, StatusFail or StatusError.
	Status string `json:"status"`
	// Lanes are the lanes the script compared, in comparison order.
	Lanes []string `json:"lanes"`
	// DurationMS is the script's wall time in milliseconds.
	DurationMS int64 `json:"duration_ms"`
	// Diff is the readable difference; empty when Status is StatusPass.
	Diff string `json:"diff"`
}

// ReadResults reads a results file written by Results.Write.
func ReadResults(path string) (Results, error) {
	var r Results
	b, err := os.ReadFile(path)
	if err != nil {
		return r, fmt.Errorf("parity results: %w", err)
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("parity results %s: %w", path, err)
	}
	if r.SchemaVersion != ResultsSchemaVersion {
		return r, fmt.Errorf("parity results %s: schema_version %d, want %d", path, r.SchemaVersion, ResultsSchemaVersion)
	}
	return r, nil
}

// Write writes r to path as indented JSON, creating parent directories. The
// file is replaced atomically (temp file + rename) so a reader never sees a
// half-written file. RunAt is written in UTC, RFC 3339, second precision.
func (r Results) Write(path string) error {
	if r.SchemaVersion == 0 {
		r.SchemaVersion = ResultsSchemaVersion
	}
	r.RunAt = r.RunAt.UTC().Truncate(time.Second)
	if r.Tools == nil {
		r.Tools = []ToolResult{}
	}
	for i := range r.Tools {
		if r.Tools[i].Lanes == nil {
			r.Tools[i].Lanes = []string{}
		}
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("parity results: %w", err)
	}
	b = append(b, '\n')
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("parity results: %w", err)
	}
	f, err := os.CreateTemp(dir, ".last-*.json")
	if err != nil {
		return fmt.Errorf("parity results: %w", err)
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("parity results %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("parity results %s: %w", path, err)
	}
	return nil
}

// OK reports whether every tool passed (and at least one ran).
func (r Results) OK() bool {
	if len(r.Tools) == 0 {
		return false
	}
	for _, t := range r.Tools {
		if t.Status != StatusPass {
			return false
		}
	}
	return true
}
