package all_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/commandstest"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/parity"
	"github.com/cmdbridge/cmdbridge/tool"
)

// structuralCodes are the error codes a tool gives an input whose shape it refuses: the
// argv phase (USAGE), the operation's own checks of the values (VALIDATION) and the
// kernel's or argv builder's refusal (INVALID_INPUT).
var structuralCodes = map[string]bool{tool.CodeUsage: true, tool.CodeValidation: true, tool.CodeInvalidInput: true}

// requiredInputExceptions are the tools whose minimal input may still fail with a
// structural code on the acme fixture, each with the workspace state the rule depends on
// (keyed "tool" for every lane, or "tool@lane"). There are none today.
var requiredInputExceptions = map[string]string{}

// requiredHints are values the acme fixture has, for properties that name something in
// the workspace (a WU in the state the tool needs, a defined lane, an existing file). A
// hint is used only where the schema already refuses the empty string (minLength or a
// pattern), so that the empty value is tried wherever the schema allows it, and for the
// properties a description says are "required unless" another input lifts the rule.
// Keys are "tool.property" or "property".
var requiredHints = map[string]any{
	"lane":                    "Content: Docs",
	"wu:claim.id":             "WU-12", // ready, in Content: Docs
	"wu:claim.lane":           "Content: Docs",
	"lane-lock:acquire.lane":  "Content: Docs",
	"lane-lock:release.lane":  "Content: Docs",
	"initiative:status.id":    "INIT-1",
	"wu_id":                   "WU-12",
	"parent_wu_id":            "WU-15",
	"target_wu_id":            "WU-12",
	"wu:delegate.parent_wu":   "WU-15",
	"wu:delegate.id":          "WU-12",
	"plan:create.id":          "WU-12",
	"plan:edit.id":            "WU-12",
	"plan:link.id":            "WU-12",
	"plan:promote.id":         "WU-12",
	"owner":                   "tester@example.com",
	"key":                     "software_delivery.git.push",
	"file:read.path":          "docs/README.md",
	"file:edit.path":          "docs/README.md",
	"file:delete.path":        "docs/README.md",
	"worktree:remove.path":    "worktrees/none",
	"worktree:create.path":    "worktrees/content-docs-wu-12",
	"worktree:create.branch":  "lane/content-docs/wu-12",
	"mem:start.wu":            "WU-15",
	"mem:context.wu":          "WU-15",
	"mem:ready.wu":            "WU-15",
	"mem:recover.wu":          "WU-15",
	"mem:summarize.wu":        "WU-15",
	"agent:session.wu":        "WU-15",
	"wu:block.id":             "WU-15",
	"wu:release.id":           "WU-15",
	"wu:sandbox.id":           "WU-15",
	"wu:prep.id":              "WU-15",
	"wu:done.id":              "WU-15",
	"initiative:remove-wu.wu": "WU-12",
	"initiative:add-wu.wu":    "WU-12",
	"wu:recover.id":           "WU-15",
	"wu:unblock.id":           "WU-52",
	"wu:cleanup.id":           "WU-6",
	"wu:validate.id":          "WU-12",
	"wu:preflight.id":         "WU-12",
	"wu:edit.id":              "WU-12",
	"wu:brief.id":             "WU-12",
	"wu:delete.id":            "WU-12",
	"wu:create.description":   "Explain how the minimal inputs are built and which rules they have to meet.",
	"wu:create.acceptance":    "Every tool takes the input built from its schema",
	"wu:create.code_paths":    "docs/**",
	"wu:create.exposure":      "documentation",
}

// patternSamples are values for the patterns the schemas use (corpus §2.1 forms).
var patternSamples = map[string]string{
	delivery.WUIDPattern:     "WU-12",
	delivery.MemoryIDPattern: "mem-0a7b",
	delivery.DatePattern:     "2026-03-01",
	delivery.DurationPattern: "7d",
	tool.OperandPattern:      "",
	delivery.NonBlankPattern: "x",
	delivery.PlanIDPattern:   "WU-12",
	ops.ConfigKeyPattern:     "software_delivery.git.push",
}

// minimalInput is an input holding only the schema's required properties, each with the
// least value the schema accepts (the first enum value, a pattern's sample or a fixture
// value, a string of minLength characters, minItems items, the minimum), plus what the
// schema's rules demand: when a rule "one of a, b is required" is broken, its first
// property is added. It fails the test when it cannot build an input the schema accepts.
func minimalInput(t *testing.T, spec tool.Spec) map[string]any {
	t.Helper()
	s := spec.InputSchema
	in := map[string]any{}
	for _, name := range s.Required {
		in[name] = minimalValue(t, spec.Name, name, s.Properties[name])
	}
	// The default path: a property that is required unless another input says otherwise
	// (wu:create's strict rules, lifted by no_strict) says so in its description, in
	// the words docs/schemas.md fixes; the input takes it, with a fixture value.
	for _, name := range sortedProps(s) {
		p := s.Properties[name]
		if _, ok := in[name]; ok || !conditionallyRequired.MatchString(p.Description) {
			continue
		}
		h, ok := hint(spec.Name, name)
		require.True(t, ok, "%s.%s is required unless ...: give it a value in requiredHints", spec.Name, name)
		if p.Type == "array" {
			h = []any{h}
		}
		in[name] = h
	}
	for round := 0; ; round++ {
		v, canon, bad := tool.DecodeInput(mustJSON(t, in))
		require.Nil(t, bad, "%s: %s", spec.Name, canon)
		out := spec.CheckInput(v)
		if out == nil {
			return in
		}
		require.Less(t, round, 8, "%s: no input from the required properties passes the schema: %s", spec.Name, out.Message)
		added := false
		if s.Not != nil {
			for _, rule := range s.Not.AnyOf {
				if rule.Not == nil || !matches(t, rule, v) {
					continue
				}
				// A broken "at least one of" rule: give its first property.
				first := rule.Not.Required
				if len(first) == 0 && len(rule.Not.AnyOf) > 0 {
					first = rule.Not.AnyOf[0].Required
				}
				require.NotEmpty(t, first, "%s: rule %q", spec.Name, rule.Description)
				p := s.Properties[first[0]]
				val := minimalValue(t, spec.Name, first[0], p)
				switch p.Type {
				case "boolean":
					val = true
				case "array":
					if len(val.([]any)) == 0 {
						val = []any{minimalValue(t, spec.Name, first[0], p.Items)}
					}
				}
				in[first[0]] = val
				added = true
			}
		}
		require.True(t, added, "%s: the input from the required properties breaks the schema: %s", spec.Name, out.Message)
	}
}

// conditionallyRequired finds the sentence a property's description carries when the
// property is required unless another input lifts the rule (docs/schemas.md).
var conditionallyRequired = regexp.MustCompile(`\brequired unless\b`)

func sortedProps(s *jsonschema.Schema) []string {
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func matches(t *testing.T, s *jsonschema.Schema, v any) bool {
	t.Helper()
	r, err := s.Resolve(nil)
	require.NoError(t, err)
	return r.Validate(v) == nil
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

func hint(toolName, prop string) (any, bool) {
	if v, ok := requiredHints[toolName+"."+prop]; ok {
		return v, true
	}
	v, ok := requiredHints[prop]
	return v, ok
}

func minimalValue(t *testing.T, toolName, prop string, s *jsonschema.Schema) any {
	t.Helper()
	require.NotNil(t, s, "%s: required property %s has no schema", toolName, prop)
	if len(s.Enum) > 0 {
		return s.Enum[0]
	}
	switch s.Type {
	case "boolean":
		return false
	case "integer", "number":
		v := 0.0
		if s.Minimum != nil {
			v = *s.Minimum
		}
		if s.ExclusiveMinimum != nil {
			v = *s.ExclusiveMinimum + 1
		}
		return v
	case "array":
		n := 0
		if s.MinItems != nil {
			n = *s.MinItems
		}
		out := []any{}
		for i := 0; i < n; i++ {
			out = append(out, minimalValue(t, toolName, prop, s.Items))
		}
		return out
	case "string":
	default:
		t.Fatalf("%s: required property %s has type %q, which the generator does not build", toolName, prop, s.Type)
	}
	minLen := 0
	if s.MinLength != nil {
		minLen = *s.MinLength
	}
	if s.Pattern == "" && minLen == 0 {
		return "" // the least string; the schema allows it, so the tool must take it
	}
	if h, ok := hint(toolName, prop); ok {
		if str, _ := h.(string); len([]rune(str)) >= minLen && (s.Pattern == "" || regexp.MustCompile(s.Pattern).MatchString(str)) {
			return str
		}
	}
	if s.Pattern != "" {
		v, ok := patternSamples[s.Pattern]
		require.True(t, ok, "%s.%s: no sample for pattern %s (add one to patternSamples)", toolName, prop, s.Pattern)
		if len([]rune(v)) >= minLen {
			return v
		}
	}
	return strings.Repeat("x", minLen)
}

// requiredTemplate is a git copy of the acme fixture, made once and held in memory: each
// call runs on a copy of it.
func requiredTemplate(t *testing.T) *commandstest.Tree {
	t.Helper()
	fixture, err := filepath.Abs(filepath.Join("..", "..", "testdata", "workspaces", "acme"))
	require.NoError(t, err)
	dir := filepath.Join(t.TempDir(), "acme")
	require.NoError(t, parity.CopyTree(fixture, dir, nil))
	for _, argv := range [][]string{
		{"init", "-q", "-b", "main"},
		// No `git maintenance run --auto` process after each commit a call makes.
		{"config", "maintenance.auto", "false"},
		{"add", "-A"},
		{"-c", "user.name=Tester", "-c", "user.email=tester@example.com", "-c", "commit.gpgsign=false",
			"commit", "-q", "-m", "initial"},
	} {
		cmd := exec.Command("git", argv...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir,
			"GIT_AUTHOR_DATE=2026-03-01T10:00:00Z", "GIT_COMMITTER_DATE=2026-03-01T10:00:00Z")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %s: %s", strings.Join(argv, " "), out)
	}
	tree, err := commandstest.ReadTree(dir)
	require.NoError(t, err)
	return tree
}

// TestRequiredInputsPassStructuralChecks: for every tool, on every lane that serves it
// in-process (the adapter lane for the 82 commands, the native lane for every native
// tool), an input built from the schema's required properties alone, with the least
// values the schema accepts, is never refused for its shape: the result's error code is
// not USAGE, VALIDATION or INVALID_INPUT (issue 23: an agent that trusts the schema does
// not fail its first call). Each call runs once, on its own git copy of the acme
// fixture; workspace state (NOT_FOUND, INVALID_TRANSITION, ...) may still refuse it.
func TestRequiredInputsPassStructuralChecks(t *testing.T) {
	template := requiredTemplate(t)
	type lane struct {
		name string
		spec tool.Spec
		call func(dir string, input json.RawMessage) tool.Output
	}
	lanes := map[string][]lane{}
	for _, c := range commands.All() {
		spec, err := adapter.Spec(c)
		require.NoError(t, err, c.Name)
		lanes[c.Name] = append(lanes[c.Name], lane{adapter.LaneAdapter, spec, func(dir string, input json.RawMessage) tool.Output {
			env := map[string]string{}
			for k, v := range benchEnv {
				env[k] = v
			}
			env["HOME"] = dir
			return adapter.Call(context.Background(), c, input, adapter.LaneAdapter, adapter.Config{Dir: dir, Env: env})
		}})
	}
	for _, n := range nativetools.Default.All() {
		lanes[n.Spec.Name] = append(lanes[n.Spec.Name], lane{"native", n.Spec, func(dir string, input json.RawMessage) tool.Output {
			return n.Call(context.Background(), kernelEnv(dir), input)
		}})
	}
	names := make([]string, 0, len(lanes))
	for name := range lanes {
		names = append(names, name)
	}
	sort.Strings(names)
	require.GreaterOrEqual(t, len(names), 91, "82 commands and 9 native-only tools")
	for _, name := range names {
		for _, l := range lanes[name] {
			t.Run(name+"@"+l.name, func(t *testing.T) {
				t.Parallel()
				in := minimalInput(t, l.spec)
				raw := mustJSON(t, in)
				dir := filepath.Join(t.TempDir(), "acme")
				require.NoError(t, template.Write(dir))
				out := l.call(dir, raw)
				if out.Error == nil || !structuralCodes[out.Error.Code] {
					return
				}
				for _, key := range []string{name + "@" + l.name, name} {
					if reason, ok := requiredInputExceptions[key]; ok {
						t.Logf("%s %s: %s (exception: %s)", name, raw, out.Error.Code, reason)
						return
					}
				}
				t.Errorf("%s on the %s lane refuses the input built from its schema's required properties, %s: %s %s\ndetails: %s",
					name, l.name, raw, out.Error.Code, out.Error.Message, detailsOf(out))
			})
		}
	}
}

func detailsOf(out tool.Output) string {
	if out.Error == nil || out.Error.Details == nil {
		return "null"
	}
	b, _ := json.Marshal(out.Error.Details)
	return string(b)
}
