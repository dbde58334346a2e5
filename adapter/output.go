package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/effect"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// excerptSize bounds the stream excerpts carried in metadata.
const excerptSize = 4 << 10

// envelope is the command's --json document (spec 2.2).
type envelope struct {
	OK       *bool           `json:"ok"`
	Command  *string         `json:"command"`
	Data     json.RawMessage `json:"data"`
	Error    *envelopeError  `json:"error"`
	Warnings []string        `json:"warnings"`
}

type envelopeError struct {
	Code    string          `json:"code"`
	Message string          `json:"message"`
	Details json.RawMessage `json:"details"`
}

// parseEnvelope reads stdout as exactly one envelope document.
func parseEnvelope(stdout []byte) (*envelope, bool) {
	dec := json.NewDecoder(bytes.NewReader(stdout))
	var env envelope
	if err := dec.Decode(&env); err != nil || env.OK == nil || env.Command == nil {
		return nil, false
	}
	if dec.More() {
		return nil, false
	}
	if _, err := dec.Token(); err == nil {
		return nil, false // trailing content after the document
	}
	return &env, true
}

// ToOutput maps a run to a tool.Output, the same way for every command and both lanes,
// by the command's output convention (Result.Output). A plain command: see
// [plainOutput]. An envelope command: the envelope's ok, data (byte-exact json.RawMessage), error and warnings; timeout and
// cancellation as TIMEOUT and CANCELLED; a stdout that is not an envelope, or an exit
// code that disagrees with ok, as COMMAND_FAILED. Metadata always carries lane,
// exit_code, duration_ms, warnings, stderr (its last 4 KiB), truncated and
// leaked_goroutines; it is never compared by parity. A plain command whose stdout was one
// JSON document also has its streams' exact bytes there (stdout, and stderr whole).
func ToOutput(r Result) tool.Output {
	meta := map[string]any{
		"lane":              r.Lane,
		"exit_code":         r.ExitCode,
		"duration_ms":       float64(r.Duration.Microseconds()) / 1000,
		"warnings":          []string{},
		"stderr":            string(tail(r.Stderr, excerptSize)),
		"truncated":         r.StdoutTruncated || r.StderrTruncated,
		"leaked_goroutines": r.LeakedGoroutines,
	}
	withMeta := func(o tool.Output) tool.Output { o.Metadata = meta; return o }
	switch r.Status {
	case TimedOut:
		return withMeta(tool.Fail(tool.CodeTimeout, "%s did not finish before the call's deadline", r.Command))
	case Cancelled:
		return withMeta(tool.Fail(tool.CodeCancelled, "%s was cancelled by the caller", r.Command))
	}
	if r.Output == legacy.OutputPlain {
		out := plainOutput(r)
		maps.Copy(meta, out.Metadata) // a JSON document's exact streams replace the excerpt
		return withMeta(out)
	}
	env, ok := parseEnvelope(r.Stdout)
	if !ok {
		meta["stdout"] = string(head(r.Stdout, excerptSize))
		msg := tool.FirstLine(r.Stderr)
		if msg == "" {
			msg = fmt.Sprintf("%s exited with code %d without a JSON envelope on stdout", r.Command, r.ExitCode)
		}
		return withMeta(tool.Fail(tool.CodeCommandFailed, "%s", msg))
	}
	if env.Warnings != nil {
		meta["warnings"] = env.Warnings
	}
	if *env.OK != (r.ExitCode == 0) {
		return withMeta(tool.Fail(tool.CodeCommandFailed,
			"%s exited with code %d but its envelope says ok=%v", r.Command, r.ExitCode, *env.OK))
	}
	if *env.OK {
		return withMeta(tool.OK(env.Data))
	}
	if env.Error == nil || env.Error.Code == "" {
		return withMeta(tool.Fail(tool.CodeCommandFailed, "%s failed without an error in its envelope", r.Command))
	}
	out := tool.Output{Error: &tool.Error{Code: env.Error.Code, Message: env.Error.Message}}
	if d := bytes.TrimSpace(env.Error.Details); len(d) > 0 && !bytes.Equal(d, []byte("null")) {
		out.Error.Details = env.Error.Details
	}
	if d := bytes.TrimSpace(env.Data); len(d) > 0 && !bytes.Equal(d, []byte("null")) {
		out.Data = env.Data // check commands report partial data with their failure
	}
	return withMeta(out)
}

// plainOutput maps a finished run of a plain command ([tool.Plain]): exit code 0 is
// success, with data the parsed value when stdout is exactly one JSON document (its
// exact bytes kept in metadata), else {stdout, stderr, exit_code}; any other exit code is
// COMMAND_FAILED whose message names the code and the first line of stderr, with the
// same three fields as details.
func plainOutput(r Result) tool.Output {
	return tool.Plain(r.Command, r.Stdout, r.Stderr, r.ExitCode)
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

func head(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

// UndeclaredWarning is the warning of a tree leaf that declares no effect
// (legacy.MetaUndeclared): it is served as destructive until its effects are declared
// (tool.UndeclaredWarning, which the kernel's policy reads).
const UndeclaredWarning = tool.UndeclaredWarning

// Spec describes c as a tool: its name, App.Usage as description, the derived input
// schema, annotations, effects and path inputs from the app's Metadata
// (commands/meta.go; openWorldHint is MetaNetwork, MetaOpenWorld or MetaRunsCode;
// runsCodeHint is MetaRunsCode), the default
// timeouts, parallel safety for read-only commands, and the schema's [Warnings]. Effects
// that name an unknown property or claim more than the annotations are an error.
func Spec(c legacy.Command) (tool.Spec, error) {
	app := c.New()
	schema, ps, warnings, err := schemaOf(c)
	if err != nil {
		return tool.Spec{}, err
	}
	flag := func(key string) (bool, error) {
		v, ok := app.Metadata[key]
		if !ok {
			return false, nil
		}
		b, ok := v.(bool)
		if !ok {
			return false, fmt.Errorf("command %s: metadata %s must be a bool, not %T", c.Name, key, v)
		}
		return b, nil
	}
	var ro, destructive, idempotent, network, openWorld, runsCode bool
	for key, dst := range map[string]*bool{
		legacy.MetaReadOnly: &ro, legacy.MetaDestructive: &destructive,
		legacy.MetaIdempotent: &idempotent, legacy.MetaNetwork: &network,
		legacy.MetaOpenWorld: &openWorld, legacy.MetaRunsCode: &runsCode,
	} {
		if *dst, err = flag(key); err != nil {
			return tool.Spec{}, err
		}
	}
	paths, declared, err := pathInputs(c.Name, app.Metadata[legacy.MetaPaths], schema.Properties)
	if err != nil {
		return tool.Spec{}, err
	}
	if undeclared, _ := app.Metadata[legacy.MetaUndeclared].(bool); undeclared {
		warnings = append(warnings, UndeclaredWarning)
	} else {
		warnings = append(warnings, undeclaredPaths(schema, ps, declared)...)
	}
	var effects []tool.Effect
	if v, ok := app.Metadata[legacy.MetaEffects]; ok {
		if effects, err = effectList(v); err != nil {
			return tool.Spec{}, fmt.Errorf("command %s: metadata %s: %w", c.Name, legacy.MetaEffects, err)
		}
	}
	spec := tool.Spec{
		Name:        c.Name,
		Description: toolDescription(app, c.Output),
		Domain:      c.Domain,
		InputSchema: schema,
		Annotations: tool.Annotations{
			ReadOnlyHint:    ro,
			DestructiveHint: destructive,
			IdempotentHint:  idempotent,
			OpenWorldHint:   network || openWorld || runsCode,
			RunsCodeHint:    runsCode,
		},
		Effects:        effects,
		Paths:          paths,
		Network:        network,
		DefaultTimeout: tool.DefaultTimeout,
		MaxTimeout:     tool.MaxTimeout,
		ParallelSafe:   ro,
		Warnings:       warnings,
	}
	if err := spec.CheckEffects(); err != nil {
		return tool.Spec{}, err
	}
	return spec, nil
}

// effectList reads legacy.MetaEffects: a []tool.Effect, or its JSON-shaped form (an
// app rebuilt from its description holds its Metadata decoded).
func effectList(v any) ([]tool.Effect, error) {
	if l, ok := v.([]tool.Effect); ok {
		return l, nil
	}
	if _, ok := v.([]any); !ok {
		return nil, fmt.Errorf("must be a []tool.Effect, not %T", v)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out []tool.Effect
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("must be a list of {when, read_only, destructive, runs_code}: %w", err)
	}
	return out, nil
}

// pathInputs reads MetaPaths (map[string]string or map[string]any of property → read |
// write | read-url | write-url | none), checking each property exists. It returns the inputs read or written,
// and every property declared (none included).
func pathInputs(name string, v any, props map[string]*jsonschema.Schema) ([]tool.PathInput, map[string]bool, error) {
	if v == nil {
		return nil, nil, nil
	}
	raw := map[string]string{}
	switch m := v.(type) {
	case map[string]string:
		raw = m
	case map[string]any:
		for k, a := range m {
			s, ok := a.(string)
			if !ok {
				return nil, nil, fmt.Errorf("command %s: metadata %s[%s] must be a string", name, legacy.MetaPaths, k)
			}
			raw[k] = s
		}
	default:
		return nil, nil, fmt.Errorf("command %s: metadata %s must be a map of property to read|write|none, not %T", name, legacy.MetaPaths, v)
	}
	out := make([]tool.PathInput, 0, len(raw))
	declared := make(map[string]bool, len(raw))
	for prop, access := range raw {
		if _, ok := props[prop]; !ok {
			return nil, nil, fmt.Errorf("command %s: path input %q is not an input property", name, prop)
		}
		declared[prop] = true
		switch access {
		case string(tool.Read), string(tool.Write):
			out = append(out, tool.PathInput{Property: prop, Access: tool.Access(access)})
		case effect.ReadURL:
			out = append(out, tool.PathInput{Property: prop, Access: tool.Read, URL: true})
		case effect.WriteURL:
			out = append(out, tool.PathInput{Property: prop, Access: tool.Write, URL: true})
		case effect.NotOpened:
		default:
			return nil, nil, fmt.Errorf("command %s: path input %q: access %q is not read, write, read-url, write-url or none", name, prop, access)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Property < out[j].Property })
	return out, declared, nil
}

// pathWords are the words of a property's name (split at "_") that say it names a file
// or a directory.
var pathWords = map[string]bool{
	"dir": true, "dirs": true, "directory": true, "folder": true, "path": true, "paths": true,
	"file": true, "files": true, "filename": true, "output": true,
}

// undeclaredPaths are the warnings of the string inputs of schema that name files or
// directories and that the command's effects do not declare (read, write or none): the
// kernel passes their values as given, outside the caller's scopes. An input names a
// file when the program declares it so (a path flag or TakesFile: [namesAFile]) or
// when its name says so ([pathWords]: data_dir, schema_file, output).
func undeclaredPaths(schema *jsonschema.Schema, ps []param, declared map[string]bool) []string {
	files := map[string]bool{}
	for _, p := range ps {
		if p.file {
			files[p.prop] = true
		}
	}
	var out []string
	for _, prop := range slices.Sorted(maps.Keys(schema.Properties)) {
		p := schema.Properties[prop]
		if declared[prop] || !(p.Type == "string" || p.Type == "array" && p.Items != nil && p.Items.Type == "string") {
			continue
		}
		why := ""
		switch {
		case files[prop]:
			why = "is declared a file or directory by the program"
		case slices.ContainsFunc(strings.Split(prop, "_"), func(w string) bool { return pathWords[w] }):
			why = "is named like a path"
		default:
			continue
		}
		out = append(out, fmt.Sprintf("input %s %s and its effects' paths leave it out, so it is passed as given, outside the caller's scopes: declare it read, write or none (docs/adopt.md, Effects)", prop, why))
	}
	return out
}

// Call is one tool call on the legacy lanes: [Argv], then [Run] (lane "adapter") or
// [RunSubprocess] (lane "subprocess"), then [ToOutput]. A bad input is INVALID_INPUT.
//
// A command whose tier is subprocess never runs in-process: asked for the adapter lane,
// it runs on the subprocess lane, and the metadata says lane "subprocess", reason "tier"
// (without opts.Binary that run fails as the subprocess lane does: it is never served
// in-process instead). A command with no tier (nobody analysed it) does the same, with
// reason "unanalysed", whenever opts.Binary is set and opts.RunUnanalysed is not.
func Call(ctx context.Context, c legacy.Command, input json.RawMessage, lane string, opts Config) tool.Output {
	argv, err := Argv(c, input)
	if err != nil {
		return tool.Fail(tool.CodeInvalidInput, "%s: %v", c.Name, err)
	}
	switch lane {
	case LaneAdapter:
		if reason := routeOf(c, opts); reason != "" {
			out := ToOutput(RunSubprocess(ctx, c, argv, opts))
			out.Metadata["reason"] = reason
			if reason == ReasonTier {
				out.Metadata["tier"] = TierSubprocess
			}
			return out
		}
		return ToOutput(Run(ctx, c, argv, opts))
	case LaneSubprocess:
		return ToOutput(RunSubprocess(ctx, c, argv, opts))
	}
	return tool.Fail(tool.CodeExecutionFailed, "%s: unknown lane %q (want %q or %q)", c.Name, lane, LaneAdapter, LaneSubprocess)
}
