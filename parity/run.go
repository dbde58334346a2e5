package parity

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/parity/compare"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// Lane names, in comparison order: the first lane that runs is the
// reference every other lane is compared with.
const (
	LaneSubprocess = adapter.LaneSubprocess
	LaneAdapter    = adapter.LaneAdapter
	LaneNative     = "native"
	// LaneWarm is the native implementation run as a long-lived host runs it
	// (Config.Warm): in one directory kept in step with the workspace, with the host's
	// store, so its warm state must follow every change since the previous call.
	LaneWarm = "warm"
)

// AllLanes is every lane parity knows, in comparison order.
var AllLanes = []string{LaneSubprocess, LaneAdapter, LaneNative, LaneWarm}

// Config configures Run.
type Config struct {
	// Workspace is the directory copied once per lane; each lane's call runs
	// in the root of its copy. It is never written.
	Workspace string
	// Lanes restricts the lanes (nil: every lane that exists for the tool:
	// subprocess and adapter when the command is registered, native when
	// Native has the tool, warm when it has and Warm is set).
	Lanes []string
	// Commands holds the legacy commands (nil: none).
	Commands *legacy.Registry
	// Native holds native implementations (nil: no native lane).
	Native *native.Registry
	// Binary is the executable the subprocess lane runs: the program of a tree leaf
	// (legacy.Command.Program), or the multi-call binary of a command of its own.
	Binary string
	// Env sets variables for the call on every lane, on top of the host
	// environment. A value naming the workspace (or a path inside it) is
	// rewritten to the lane's copy.
	Env map[string]string
	// Stdin is the call's standard input on every lane.
	Stdin []byte
	// Runtime builds a native call's clock and id source from its
	// environment, e.g. delivery.ToolRuntime (nil: wall clock, no ids).
	Runtime func(lookup func(string) (string, bool)) (now func() time.Time, ids tool.IDSource)
	// Rules replace the default normalisation rules (nil: DefaultRules).
	Rules []Rule
	// Scratch is where the lane copies are made (""; os.TempDir()). They are
	// removed before Run returns.
	Scratch string
	// Keep, when set, keeps the directories of the subprocess, adapter and native lanes
	// from one call to the next (see Kept) instead of copying the workspace for each
	// call; they are not removed when Run returns.
	Keep *Kept
	// Warm, when set, adds the warm lane: the native implementation run below Warm.Dir
	// (synced, not copied) with Warm.Store, as a long-lived host would (see Warm),
	// beside the native lane's cold run on a copy.
	Warm *Warm
	// RunUnanalysed lets the adapter lane run commands nobody analysed (no tier)
	// in-process, as adapter.Config.RunUnanalysed does when serving. Without it such a
	// command's adapter lane runs on the subprocess lane whenever Binary is set; a
	// command whose tier is subprocess always does (LaneResult.Routed says why).
	RunUnanalysed bool
	// Skip, when set, names what of the workspace no lane gets (slash-separated paths
	// relative to it; a skipped directory is not entered): it is not copied or synced to
	// the lanes, and the call's changes are counted without it. The script suite skips a
	// script's goldens (want/), which no call reads. What a lane writes there is still
	// seen and compared.
	Skip func(rel string) bool
	// OnLane, when set, is called as each lane starts, with the lane and whether it
	// runs in this process: a host records it so that a lane that ends the process
	// (a command's os.Exit) is named afterwards.
	OnLane func(lane string, inProcess bool)
}

// LaneResult is what one lane produced.
type LaneResult struct {
	Lane   string
	Output tool.Output
	// Streams are set for the subprocess and adapter lanes, and for the native
	// lane of a plain command whose output carries them (PlainStreams).
	Streams *Streams
	// Tree is the normalised snapshot of the lane's copy after the call.
	Tree Tree
	// Routed is set when the adapter lane ran the command on the subprocess lane, as
	// serving would (adapter.Route): the reason, adapter.ReasonTier or
	// adapter.ReasonUnanalysed.
	Routed string
}

// Report is the outcome of one parity run.
type Report struct {
	Tool  string
	Input json.RawMessage
	// Lanes are the lanes that ran, reference first.
	Lanes   []string
	Results []LaneResult
	// Diffs are every difference from the reference lane.
	Diffs []Diff
	// Common is the reference lane's normalised output as indented JSON
	// (success, data, error code and the file changes the call made), the
	// text scripts compare with one golden.
	Common []byte
}

// OK reports whether every lane agreed.
func (r *Report) OK() bool { return len(r.Diffs) == 0 }

// routed reports whether a lane ran the command elsewhere (LaneResult.Routed).
func (r *Report) routed() bool {
	for _, res := range r.Results {
		if res.Routed != "" {
			return true
		}
	}
	return false
}

// String renders the differences readably, one block per Diff, or a line
// saying the lanes agree.
func (r *Report) String() string {
	var routed strings.Builder
	for _, res := range r.Results {
		if res.Routed != "" {
			fmt.Fprintf(&routed, "  (the %s lane ran it on the %s lane, as serving does: reason %q)\n", res.Lane, LaneSubprocess, res.Routed)
		}
	}
	if r.OK() {
		return fmt.Sprintf("parity %s: %s agree\n%s", r.Tool, strings.Join(r.Lanes, ", "), routed.String())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "parity %s %s: %d difference(s) across %s\n", r.Tool, r.Input, len(r.Diffs), strings.Join(r.Lanes, ", "))
	b.WriteString(routed.String())
	for _, d := range r.Diffs {
		b.WriteString(d.String())
		b.WriteString("\n")
	}
	return b.String()
}

// common is the shape of Report.Common.
type common struct {
	Success bool     `json:"success"`
	Data    any      `json:"data"`
	Error   *string  `json:"error_code"`
	Files   []string `json:"files"`
}

// Run runs the call input to tool on every lane on its own copy of
// opts.Workspace and compares the results (see the package doc). An error
// means parity could not run (no such tool, fewer than two lanes, a copy
// failed); differences are in the Report.
func Run(ctx context.Context, toolName string, input json.RawMessage, opts Config) (*Report, error) {
	if len(bytes.TrimSpace(input)) == 0 {
		input = json.RawMessage("{}")
	}
	cmds := opts.Commands
	if cmds == nil {
		cmds = legacy.NewRegistry()
	}
	cmd, hasCmd := cmds.Lookup(toolName)
	var native native.Tool
	hasNative := false
	if opts.Native != nil {
		native, hasNative = opts.Native.Lookup(toolName)
	}
	exists := map[string]bool{LaneSubprocess: hasCmd, LaneAdapter: hasCmd, LaneNative: hasNative, LaneWarm: hasNative && opts.Warm != nil}
	var lanes []string
	for _, l := range AllLanes {
		if exists[l] && (opts.Lanes == nil || slices.Contains(opts.Lanes, l)) {
			lanes = append(lanes, l)
		}
	}
	for _, l := range opts.Lanes {
		if !slices.Contains(AllLanes, l) {
			return nil, fmt.Errorf("parity %s: unknown lane %q (want one of %s)", toolName, l, strings.Join(AllLanes, ", "))
		}
	}
	if len(lanes) < 2 {
		return nil, fmt.Errorf("parity %s: %d lane(s) available (%s), need two to compare", toolName, len(lanes), strings.Join(lanes, ", "))
	}
	if slices.Contains(lanes, LaneSubprocess) && opts.Binary == "" {
		return nil, fmt.Errorf("parity %s: the subprocess lane needs Config.Binary (the program %s)", toolName, cmd.Argv0())
	}
	refusal, err := checkInput(toolName, input, native, hasNative, cmd)
	if err != nil {
		return nil, err
	}
	ws, err := filepath.Abs(opts.Workspace)
	if err != nil {
		return nil, fmt.Errorf("parity %s: workspace: %w", toolName, err)
	}
	before, err := compare.SnapshotSkip(ws, opts.Skip)
	if err != nil {
		return nil, fmt.Errorf("parity %s: %w", toolName, err)
	}
	scratch, err := os.MkdirTemp(opts.Scratch, "parity-")
	if err != nil {
		return nil, fmt.Errorf("parity %s: %w", toolName, err)
	}
	defer os.RemoveAll(scratch)
	norm := Normalizer{Work: []string{ws}, Rules: opts.Rules}
	// Every lane's copy has the workspace's own base name (below a directory per lane): a
	// command that names the workspace after its directory (workspace:init) must see the
	// same name on every lane.
	base := filepath.Base(ws)
	dirs := map[string]string{}
	for _, l := range lanes {
		dirs[l] = filepath.Join(scratch, l, base)
		if refusal != nil {
			continue // no lane runs: none needs a copy, and each leaves what it was given
		}
		if l == LaneWarm {
			dirs[l] = filepath.Join(opts.Warm.Dir, base)
			if err := compare.SyncTreeSharingObjects(ws, dirs[l], opts.Skip); err != nil {
				return nil, fmt.Errorf("parity %s: sync workspace for the warm native lane: %w", toolName, err)
			}
			norm.Work, norm.Above = append(norm.Work, dirs[l]), append(norm.Above, filepath.Dir(dirs[l]))
			continue
		}
		if opts.Keep != nil {
			if dirs[l], err = opts.Keep.dir(ws, filepath.Join(l, base)); err != nil {
				return nil, fmt.Errorf("parity %s: lane %s: %w", toolName, l, err)
			}
			if err := compare.SyncTreeSharingObjects(ws, dirs[l], opts.Skip); err != nil {
				return nil, fmt.Errorf("parity %s: sync workspace for lane %s: %w", toolName, l, err)
			}
			norm.Work, norm.Above = append(norm.Work, dirs[l]), append(norm.Above, filepath.Dir(dirs[l]))
			continue
		}
		if err := compare.CopyTreeSharingObjects(ws, dirs[l], opts.Skip); err != nil {
			return nil, fmt.Errorf("parity %s: copy workspace for lane %s: %w", toolName, l, err)
		}
		norm.Work, norm.Above = append(norm.Work, dirs[l]), append(norm.Above, filepath.Dir(dirs[l]))
	}
	rep := &Report{Tool: toolName, Input: input, Lanes: lanes}
	plain := hasCmd && cmd.Output == legacy.OutputPlain
	for _, l := range lanes {
		res := LaneResult{Lane: l}
		env := laneEnv(opts.Env, ws, dirs[l])
		switch {
		case refusal != nil:
			// The kernel refuses this input before any lane runs; so does parity.
			res.Output = refusal.Output()
		case l == LaneSubprocess || l == LaneAdapter:
			aopts := adapter.Config{Dir: dirs[l], Env: env, Stdin: opts.Stdin, Binary: opts.Binary, RunUnanalysed: opts.RunUnanalysed}
			run := l
			if l == LaneAdapter {
				if res.Routed = adapter.Route(cmd, aopts); res.Routed != "" {
					run = LaneSubprocess
				}
			}
			if opts.OnLane != nil {
				opts.OnLane(l, run == LaneAdapter)
			}
			res.Output, res.Streams = runLegacy(ctx, cmd, input, run, aopts)
			if res.Routed != "" {
				res.Output = res.Output.WithMeta("reason", res.Routed)
			}
		case l == LaneNative || l == LaneWarm:
			if opts.OnLane != nil {
				opts.OnLane(l, true)
			}
			var warm *Warm // the native lane runs cold
			if l == LaneWarm {
				warm = opts.Warm
			}
			res.Output = runNative(ctx, native, input, dirs[l], env, warm.store(), opts)
			if plain {
				res.Streams = PlainStreams(res.Output)
			}
		}
		tree := before
		if refusal == nil {
			if tree, err = Snapshot(dirs[l]); err != nil {
				return nil, fmt.Errorf("parity %s: lane %s: %w", toolName, l, err)
			}
		}
		res.Tree = tree.Normalize(norm)
		rep.Results = append(rep.Results, res)
	}
	ref := rep.Results[0]
	for _, other := range rep.Results[1:] {
		pair := ref.Lane + "/" + other.Lane
		var ds []Diff
		switch {
		case plain && ref.Streams != nil && other.Streams != nil:
			// A plain command's data and error details are its streams: compare them
			// once, byte for byte, with the outcome.
			ds = append(ds, CompareStatus(ref.Output, other.Output)...)
			ds = append(ds, CompareStreams(*ref.Streams, *other.Streams, ref.Lane, other.Lane, norm)...)
		case plain:
			// One side printed (or returned) one JSON document: compare the data, and
			// a failure's details, which hold the streams.
			ds = append(ds, CompareOutputs(ref.Output, other.Output, norm)...)
			ds = append(ds, compare.CompareDetails(ref.Output, other.Output, norm)...)
		default:
			ds = append(ds, CompareOutputs(ref.Output, other.Output, norm)...)
			if ref.Streams != nil && other.Streams != nil {
				ds = append(ds, CompareStreams(*ref.Streams, *other.Streams, ref.Lane, other.Lane, norm)...)
			}
		}
		ds = append(ds, CompareTrees(ref.Tree, other.Tree)...)
		for i := range ds {
			ds[i].Lanes = pair
		}
		rep.Diffs = append(rep.Diffs, ds...)
	}
	if rep.Common, err = commonOutput(ref, before.Normalize(norm), norm); err != nil {
		return nil, fmt.Errorf("parity %s: %w", toolName, err)
	}
	return rep, nil
}

// checkInput validates input as the kernel does in front of every lane (tool.Spec.
// CheckInput), against the native tool's schema, else the command's (the two are equal
// for a tool that has both, nativetools' twin test sees to it). It returns the refusal
// every lane then gives, or nil when the input is valid.
func checkInput(name string, input json.RawMessage, nt native.Tool, hasNative bool, cmd legacy.Command) (*tool.Error, error) {
	spec := nt.Spec
	if !hasNative {
		var err error
		if spec, err = adapter.Spec(cmd); err != nil {
			return nil, fmt.Errorf("parity %s: input schema: %w", name, err)
		}
	}
	v, _, bad := tool.DecodeInput(input)
	if bad == nil {
		bad = spec.CheckInput(v)
	}
	return bad, nil
}

func commonOutput(ref LaneResult, before Tree, norm Normalizer) ([]byte, error) {
	data, err := norm.JSON(ref.Output.Data)
	if err != nil {
		return nil, fmt.Errorf("lane %s data: %w", ref.Lane, err)
	}
	c := common{Success: ref.Output.Success, Data: data, Files: Changes(before, ref.Tree)}
	if ref.Output.Error != nil {
		c.Error = &ref.Output.Error.Code
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(c); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// laneEnv returns env with values naming the workspace moved to the lane's copy.
func laneEnv(env map[string]string, ws, dir string) map[string]string {
	out := make(map[string]string, len(env))
	for k, v := range env {
		if v == ws || strings.HasPrefix(v, ws+string(filepath.Separator)) {
			v = dir + strings.TrimPrefix(v, ws)
		}
		out[k] = v
	}
	return out
}

func runLegacy(ctx context.Context, c legacy.Command, input json.RawMessage, lane string, opts adapter.Config) (tool.Output, *Streams) {
	argv, err := adapter.Argv(c, input)
	if err != nil {
		// Same mapping adapter.Call makes; both legacy lanes fail identically.
		return tool.Fail(tool.CodeInvalidInput, "%s: %v", c.Name, err), &Streams{}
	}
	var r adapter.Result
	if lane == LaneSubprocess {
		r = adapter.RunSubprocess(ctx, c, argv, opts)
	} else {
		r = adapter.Run(ctx, c, argv, opts)
	}
	return adapter.ToOutput(r), &Streams{Stdout: r.Stdout, Stderr: r.Stderr, ExitCode: r.ExitCode}
}

// runNative calls t in dir with env, and with store as a long-lived host's (nil: none, a
// cold call).
func runNative(ctx context.Context, t native.Tool, input json.RawMessage, dir string, env map[string]string, store *tool.Store, opts Config) tool.Output {
	lookup := func(k string) (string, bool) {
		if v, ok := env[k]; ok {
			return v, true
		}
		return os.LookupEnv(k) // the other lanes inherit the host environment too
	}
	e := &tool.Env{
		Dir:       dir,
		Now:       time.Now,
		LookupEnv: lookup,
		Stdin:     bytes.NewReader(opts.Stdin),
		Log:       io.Discard,
		Store:     store,
	}
	// The legacy lanes see the caller as CMDBRIDGE_CALLER in their environment; the
	// native lane gets the same subject as Env.Caller.
	e.Caller, _ = lookup(tool.CallerEnv)
	if opts.Runtime != nil {
		e.Now, e.IDs = opts.Runtime(lookup)
	}
	return t.Call(ctx, e, input)
}

// ErrNoScripts is returned by a suite run that found no script to run.
var ErrNoScripts = errors.New("parity: no scripts")
