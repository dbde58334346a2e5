package status

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cmdbridge/cmdbridge/parity/compare"
	"github.com/cmdbridge/cmdbridge/tool"
)

// SchemaVersion is the schema_version of the JSON document; it changes only when a field
// changes meaning or disappears (adding a field keeps it).
const SchemaVersion = 1

// DefaultResults is where `cmdbridge parity` writes its results, relative to the
// repository directory.
const DefaultResults = ".cmdbridge/parity/last.json"

// Parity states of a tool: the parity package's statuses, plus none when the results file
// is missing or does not mention the tool. In progress is a scaffolded tool whose native
// handler still answers NOT_IMPLEMENTED: its parity fails (Diff holds the diff) because
// the handler is not written yet, not because the suite is broken.
const (
	ParityPass       = compare.StatusPass
	ParityFail       = compare.StatusFail
	ParityError      = compare.StatusError
	ParityInProgress = compare.StatusInProgress
	ParityNone       = "none"
)

// Stages of a tool's migration. Every tool is in exactly one.
const (
	// StageNativeWithParity: a command routed native whose parity script passed.
	StageNativeWithParity = "native-with-parity"
	// StageNativeWithoutParity: a command routed native without a passing parity result
	// (the ratchet test should have refused it; the page shows it in red).
	StageNativeWithoutParity = "native-without-parity"
	// StageShadow: a command served by the adapter while its native lane runs alongside.
	StageShadow = "shadow"
	// StageAdapter: a command served by its legacy main only.
	StageAdapter = "adapter"
	// StageNativeOnly: a tool with no legacy command; nothing to migrate.
	StageNativeOnly = "native-only"
)

// RouteSubprocess is the route shown for a command routed adapter that the adapter lane
// serves on the subprocess lane (adapter.Route), as its calls' metadata.lane says.
const RouteSubprocess = "subprocess"

// Tiers shown besides the tier source's own answers.
const (
	// TierUnknown: no tier source is configured, or it has no verdict for the command.
	TierUnknown = "unknown"
	// TierNotApplicable: a native-only tool has no legacy main for bridgecheck to judge.
	TierNotApplicable = "n/a"
)

// Tool is one registered tool as the caller's registries and route table see it.
type Tool struct {
	// Name is the canonical tool name ("wu:status").
	Name string
	// Domain names the corpus folder its golden scripts live in (testdata/script/<domain>).
	Domain string
	// Route is the lane serving it: adapter, RouteSubprocess (the adapter route of a
	// command that never runs in-process: its tier says subprocess, or nobody analysed
	// it), native or shadow.
	Route string
	// Command is true when a legacy command backs the tool.
	Command bool
	// Native is true when a native implementation exists.
	Native bool
	// Warnings are the tool spec's warnings (tool.Spec.Warnings): where its schema is a
	// fallback, or why it is unavailable.
	Warnings []string
	// Source is the Go file holding the legacy command's code (where its app is built),
	// absolute, relative to Dir, or module-qualified as a -trimpath binary records it;
	// empty when unknown. Only the "Migrate next" ranking reads it (see Rank), and only
	// inside Dir.
	Source string
}

// Config says where to read from and what to report on.
type Config struct {
	// Dir is the repository directory: scripts are read under Dir/testdata/script.
	Dir string
	// Results is the parity results file; empty means DefaultResults. A relative path is
	// taken relative to Dir.
	Results string
	// Tools are the tools to report on, in any order.
	Tools []Tool
	// Tier gives a command's bridgecheck tier ("in-process" or "subprocess"); nil or an
	// empty answer reports TierUnknown. It is not asked about native-only tools.
	Tier func(name string) string
	// Now stamps the report (nil: time.Now).
	Now func() time.Time
	// Program is the program's name: in a golden script, a tool name after it counts as
	// a run of that tool (a multi-call binary, such as the corpus's delivery).
	Program string
	// ParityCommand is the command line that runs parity here, which the text report
	// names when there are no results (default "cmdbridge parity").
	ParityCommand string
	// Shadows, when set, is a served workspace's record of shadow runs: each tool's
	// runs, matches, last mismatch and what the promotion rule says of it.
	Shadows *Shadows
}

// Report is the status of every tool. Its JSON form (fields in this order) is the
// documented output of `cmdbridge status --json`:
//
//	{
//	  "schema_version": 1,
//	  "generated_at": "RFC 3339",
//	  "results": {"path": "...", "found": true, "run_at": "RFC 3339", "unknown_tools": []},
//	  "totals": {...Totals},
//	  "tools": [{...ToolStatus}, ...],  // sorted by name
//	  "migrate_next": [{...Candidate}, ...]  // adapter commands, best first (Rank)
//	}
type Report struct {
	SchemaVersion int          `json:"schema_version"`
	GeneratedAt   time.Time    `json:"generated_at"`
	Results       ResultsInfo  `json:"results"`
	Totals        Totals       `json:"totals"`
	Tools         []ToolStatus `json:"tools"`
	MigrateNext   []Candidate  `json:"migrate_next"`
	// Shadow is present when the report read a workspace's shadow runs (Config.Shadows).
	Shadow *ShadowReport `json:"shadow,omitempty"`
	// ParityCommand is Config.ParityCommand (not part of the JSON form).
	ParityCommand string `json:"-"`
}

// ResultsInfo describes the parity results file the report read.
type ResultsInfo struct {
	// Path is the file read, slash-separated, relative to the repository when inside it.
	Path string `json:"path"`
	// Found is false when the file does not exist (every parity state is then none).
	Found bool `json:"found"`
	// RunAt is when the last parity run that wrote the file happened (each tool's own
	// run time is its LastParity); absent when the file was not found.
	RunAt *time.Time `json:"run_at,omitempty"`
	// UnknownTools are tools named in the results file but not registered (a rename or
	// a removed tool leaves a stale result behind).
	UnknownTools []string `json:"unknown_tools,omitempty"`
}

// Totals count tools per stage and per parity state.
type Totals struct {
	// Tools is every tool; Commands those backed by a legacy command.
	Tools    int `json:"tools"`
	Commands int `json:"commands"`
	// The stages: NativeWithParity+NativeWithoutParity+Shadow+Adapter == Commands.
	NativeWithParity    int `json:"native_with_parity"`
	NativeWithoutParity int `json:"native_without_parity"`
	Shadow              int `json:"shadow"`
	Adapter             int `json:"adapter"`
	NativeOnly          int `json:"native_only"`
	// ProgressPercent is NativeWithParity / Commands, in percent, one decimal.
	ProgressPercent float64 `json:"progress_percent"`
	// Parity counts tools per parity state (pass, fail, error, in-progress, none).
	Parity ParityTotals `json:"parity"`
	// SchemaWarnings counts the tools whose spec carries warnings.
	SchemaWarnings int `json:"schema_warnings"`
}

// ParityTotals count tools per parity state.
type ParityTotals struct {
	Pass       int `json:"pass"`
	Fail       int `json:"fail"`
	Error      int `json:"error"`
	InProgress int `json:"in_progress"`
	None       int `json:"none"`
}

// ToolStatus is one tool's row.
type ToolStatus struct {
	Name   string `json:"name"`
	Domain string `json:"domain"`
	// Route is adapter, subprocess, native or shadow (see Tool.Route).
	Route string `json:"route"`
	// Stage is one of the Stage constants.
	Stage string `json:"stage"`
	// HasCommand and HasNative say which implementations exist.
	HasCommand bool `json:"has_command"`
	HasNative  bool `json:"has_native"`
	// Parity is pass, fail, error, in-progress or none.
	Parity string `json:"parity"`
	// InProgress is true when Parity is in-progress: the tool was scaffolded and its
	// native handler still answers NOT_IMPLEMENTED.
	InProgress bool `json:"in_progress,omitempty"`
	// LastParity is when this tool's parity script last ran (its own run time: a run
	// of other tools leaves it as it was).
	LastParity *time.Time `json:"last_parity,omitempty"`
	// ParityLanes and ParityDurationMS come from the tool's result.
	ParityLanes      []string `json:"parity_lanes,omitempty"`
	ParityDurationMS int64    `json:"parity_duration_ms,omitempty"`
	// Diff is the readable difference of a failing or erroring parity run.
	Diff string `json:"diff,omitempty"`
	// ParityScript is testdata/script/parity/<tool.Stem(name)>.txtar; Exists says
	// whether it is there.
	ParityScript       string `json:"parity_script"`
	ParityScriptExists bool   `json:"parity_script_exists"`
	// GoldenScripts counts the scripts under testdata/script/<domain>/ that invoke the
	// tool (a `delivery`, `bridge`, `native`, `parity` or `call` line naming it).
	GoldenScripts int `json:"golden_scripts"`
	// Tier is the bridgecheck tier: in-process, subprocess, unknown, or n/a for a
	// native-only tool.
	Tier string `json:"tier"`
	// Warnings are the tool spec's warnings (docs/schemas.md); absent when it has none.
	Warnings []string `json:"warnings,omitempty"`
	// Shadow is the tool's shadow record (Config.Shadows); absent when it has none.
	Shadow *ShadowStatus `json:"shadow,omitempty"`
}

// ScriptDir is where corpus scripts live, relative to the repository.
const ScriptDir = "testdata/script"

// ParityScript is the parity script path of a tool, relative to the repository.
func ParityScript(name string) string {
	return ScriptDir + "/parity/" + tool.Stem(name) + ".txtar"
}

// Build reads the results file and the scripts and assembles the report.
func Build(opts Config) (Report, error) {
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	rep := Report{SchemaVersion: SchemaVersion, GeneratedAt: now().UTC().Truncate(time.Second), Tools: []ToolStatus{}}

	resPath := opts.Results
	if resPath == "" {
		resPath = DefaultResults
	}
	if !filepath.IsAbs(resPath) {
		resPath = filepath.Join(opts.Dir, resPath)
	}
	rep.Results.Path = displayPath(opts.Dir, resPath)
	byTool := map[string]compare.ToolResult{}
	res, err := compare.ReadResults(resPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return Report{}, fmt.Errorf("status: %w", err)
	default:
		rep.Results.Found = true
		runAt := res.RunAt.UTC()
		rep.Results.RunAt = &runAt
		for _, t := range res.Tools {
			byTool[t.Tool] = t // a tool listed twice: the later entry is the later run
		}
	}

	golden := goldenIndex{dir: filepath.Join(opts.Dir, filepath.FromSlash(ScriptDir)), program: opts.Program}
	known := map[string]bool{}
	for _, t := range opts.Tools {
		known[t.Name] = true
		st := ToolStatus{
			Name: t.Name, Domain: t.Domain, Route: t.Route,
			HasCommand: t.Command, HasNative: t.Native,
			Parity: ParityNone, ParityScript: ParityScript(t.Name), Tier: TierUnknown,
			Warnings: append([]string(nil), t.Warnings...),
		}
		if r, ok := byTool[t.Name]; ok {
			st.Parity = r.Status
			st.InProgress = r.Status == ParityInProgress
			runAt := r.RunAt.UTC()
			st.LastParity = &runAt
			st.ParityLanes = r.Lanes
			st.ParityDurationMS = r.DurationMS
			if r.Status != compare.StatusPass {
				st.Diff = r.Diff
			}
		}
		st.ParityScriptExists, err = exists(filepath.Join(opts.Dir, filepath.FromSlash(st.ParityScript)))
		if err != nil {
			return Report{}, fmt.Errorf("status: %w", err)
		}
		if st.GoldenScripts, err = golden.count(t.Domain, t.Name); err != nil {
			return Report{}, fmt.Errorf("status: %w", err)
		}
		if !t.Command {
			st.Tier = TierNotApplicable
		} else if opts.Tier != nil {
			if tier := opts.Tier(t.Name); tier != "" {
				st.Tier = tier
			}
		}
		st.Stage = stage(t, st.Parity)
		st.Shadow = shadowStatus(t.Name, t.Route, opts.Shadows)
		rep.Tools = append(rep.Tools, st)
	}
	sort.Slice(rep.Tools, func(i, j int) bool { return rep.Tools[i].Name < rep.Tools[j].Name })
	for name := range byTool {
		if !known[name] {
			rep.Results.UnknownTools = append(rep.Results.UnknownTools, name)
		}
	}
	sort.Strings(rep.Results.UnknownTools)
	rep.Totals = totals(rep.Tools)
	rep.Shadow = shadowReport(opts.Shadows, rep.Tools)
	rep.ParityCommand = opts.ParityCommand
	if rep.ParityCommand == "" {
		rep.ParityCommand = "cmdbridge parity"
	}
	if rep.MigrateNext, err = migrateNext(opts.Dir, opts.Tools, rep.Tools); err != nil {
		return Report{}, fmt.Errorf("status: %w", err)
	}
	return rep, nil
}

func stage(t Tool, parityState string) string {
	switch {
	case !t.Command:
		return StageNativeOnly
	case t.Route == "native" && parityState == ParityPass:
		return StageNativeWithParity
	case t.Route == "native":
		return StageNativeWithoutParity
	case t.Route == "shadow":
		return StageShadow
	}
	return StageAdapter
}

func totals(tools []ToolStatus) Totals {
	var t Totals
	for _, s := range tools {
		t.Tools++
		if s.HasCommand {
			t.Commands++
		}
		if len(s.Warnings) > 0 {
			t.SchemaWarnings++
		}
		switch s.Stage {
		case StageNativeWithParity:
			t.NativeWithParity++
		case StageNativeWithoutParity:
			t.NativeWithoutParity++
		case StageShadow:
			t.Shadow++
		case StageAdapter:
			t.Adapter++
		case StageNativeOnly:
			t.NativeOnly++
		}
		switch s.Parity {
		case ParityPass:
			t.Parity.Pass++
		case ParityFail:
			t.Parity.Fail++
		case ParityError:
			t.Parity.Error++
		case ParityInProgress:
			t.Parity.InProgress++
		default:
			t.Parity.None++
		}
	}
	t.ProgressPercent = percent(t.NativeWithParity, t.Commands)
	return t
}

// percent is part/whole in percent rounded to one decimal (0 when whole is 0).
func percent(part, whole int) float64 {
	if whole == 0 {
		return 0
	}
	return math.Round(float64(part)*1000/float64(whole)) / 10
}

func exists(path string) (bool, error) {
	_, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// displayPath shows path relative to dir when it lies inside it, so reports do not name
// the machine's directories.
func displayPath(dir, path string) string {
	if rel, err := filepath.Rel(dir, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(path)
}
