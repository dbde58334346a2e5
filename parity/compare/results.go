package compare

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ResultsSchemaVersion is the schema_version written in every results file.
//
// Version 2 gives each ToolResult its own run_at (a run of some tools merges into the
// file; see Merge) and adds StatusInProgress. ReadResults also reads version 1 (every
// tool then carries the file's run_at) and refuses any other version rather than guess
// at its meaning.
const ResultsSchemaVersion = 2

// Result status values of a ToolResult.
const (
	StatusPass  = "pass"  // every compared lane agreed
	StatusFail  = "fail"  // the script ran and found a difference (or failed an assertion)
	StatusError = "error" // the script could not run (missing file, bad script, setup failure, stale binary)
	// StatusInProgress: the script failed and the native lane answered NOT_IMPLEMENTED
	// on at least one call — a scaffolded tool whose handler is not written yet. Diff
	// holds the failing diff as for StatusFail.
	StatusInProgress = "in-progress"
)

// Results is the file `cmdbridge parity` writes (by default parity/last.json in the
// repository's state directory) and `cmdbridge status` reads.
type Results struct {
	SchemaVersion int `json:"schema_version"`
	// RunAt is when the last run that wrote the file started; each tool's own run
	// time is ToolResult.RunAt.
	RunAt time.Time    `json:"run_at"`
	Tools []ToolResult `json:"tools"`
}

// ToolResult is the outcome of one tool's parity script.
type ToolResult struct {
	// Tool is the canonical tool name ("wu:status").
	Tool string `json:"tool"`
	// Script is the script path as given to the runner, slash-separated.
	Script string `json:"script"`
	// Status is StatusPass, StatusFail, StatusError or StatusInProgress.
	Status string `json:"status"`
	// RunAt is when this tool's script started (UTC, second precision).
	RunAt time.Time `json:"run_at"`
	// Lanes are the lanes the script compared, in comparison order.
	Lanes []string `json:"lanes"`
	// Routed names the lanes that ran a command elsewhere, as serving would, with the
	// reason: {"adapter": "tier"} when the adapter lane ran it on the subprocess lane
	// (LaneResult.Routed).
	Routed map[string]string `json:"routed,omitempty"`
	// DurationMS is the script's wall time in milliseconds.
	DurationMS int64 `json:"duration_ms"`
	// Diff is the readable difference; empty when Status is StatusPass.
	Diff string `json:"diff"`
}

// Unfinished is the Diff of a tool whose script has started and not finished: a run
// that dies or is interrupted inside it leaves the tool this error, never an older pass.
const Unfinished = UnfinishedPrefix + " (the process died or was interrupted)"

// UnfinishedPrefix begins every unfinished script's Diff (Unfinished, DiedInLane).
const UnfinishedPrefix = "the parity run did not finish this script"

// DiedInLane is the Diff of a tool whose script was running lane in this process when
// last heard of: if the run never finished the script, that lane's command ended the
// process (os.Exit, log.Fatal) or crashed it, and this says what to do.
func DiedInLane(tool string, input []byte, lane string) string {
	return fmt.Sprintf(UnfinishedPrefix+": it ended while the %s lane ran %s %s in its own process. "+
		"A command that ends its process (os.Exit, log.Fatal, a crash) ends parity with it: give %s the subprocess tier "+
		"(bridgecheck -tiers, or leave it out of Config.InProcess) and run parity again", lane, tool, input, tool)
}

// LaneText is the lanes for a progress line: "subprocess,adapter,native", a routed lane
// with where it ran and why ("adapter=subprocess(tier)").
func (t ToolResult) LaneText() string {
	var b strings.Builder
	for i, l := range t.Lanes {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(l)
		if why := t.Routed[l]; why != "" {
			fmt.Fprintf(&b, "=subprocess(%s)", why) // the routed lane always runs the subprocess lane
		}
	}
	return b.String()
}

// ReadResults reads a results file written by Results.Write: version 2, or version 1,
// whose tools all get the file's run time. Any other version is refused with what to do.
func ReadResults(path string) (Results, error) {
	var r Results
	b, err := os.ReadFile(path)
	if err != nil {
		return r, fmt.Errorf("parity results: %w", err)
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("parity results %s: %w", path, err)
	}
	switch r.SchemaVersion {
	case ResultsSchemaVersion:
	case 1:
		for i := range r.Tools {
			r.Tools[i].RunAt = r.RunAt
		}
		r.SchemaVersion = ResultsSchemaVersion
	default:
		return r, fmt.Errorf("parity results %s: schema_version %d is not one this program reads (1 or %d): "+
			"run `cmdbridge parity` (your program's parity command) to rewrite the file, or use the release that wrote it",
			path, r.SchemaVersion, ResultsSchemaVersion)
	}
	return r, nil
}

// Merge returns prev updated with run: each tool of run replaces prev's entry for
// that tool (in place; a tool prev lacks is appended), every other entry keeps its
// status and run time. RunAt is run's. With replace set (a run of the whole suite),
// prev's entries for tools run did not cover are dropped: their scripts are gone.
func Merge(prev, run Results, replace bool) Results {
	out := Results{SchemaVersion: ResultsSchemaVersion, RunAt: run.RunAt}
	fresh := map[string]ToolResult{}
	for _, t := range run.Tools {
		fresh[t.Tool] = t
	}
	done := map[string]bool{}
	for _, t := range prev.Tools {
		if done[t.Tool] {
			continue // a tool listed twice: the first slot holds its result
		}
		if f, ok := fresh[t.Tool]; ok {
			out.Tools = append(out.Tools, f)
			done[t.Tool] = true
		} else if !replace {
			out.Tools = append(out.Tools, t)
			done[t.Tool] = true
		}
	}
	for _, t := range run.Tools {
		if !done[t.Tool] {
			out.Tools = append(out.Tools, t)
			done[t.Tool] = true
		}
	}
	return out
}

// Write writes r to path as indented JSON, creating parent directories. The
// file is replaced atomically (temp file + rename) so a reader never sees a
// half-written file. Run times are written in UTC, RFC 3339, second precision; a
// tool without one gets the file's.
func (r Results) Write(path string) error {
	if r.SchemaVersion == 0 {
		r.SchemaVersion = ResultsSchemaVersion
	}
	r.RunAt = r.RunAt.UTC().Truncate(time.Second)
	if r.Tools == nil {
		r.Tools = []ToolResult{}
	}
	r.Tools = append([]ToolResult(nil), r.Tools...)
	for i := range r.Tools {
		if r.Tools[i].Lanes == nil {
			r.Tools[i].Lanes = []string{}
		}
		if r.Tools[i].RunAt.IsZero() {
			r.Tools[i].RunAt = r.RunAt
		}
		r.Tools[i].RunAt = r.Tools[i].RunAt.UTC().Truncate(time.Second)
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
