package integration_test

import (
	"context"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/kerneltest"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/tool"
)

// The kernel's validation on the corpus's 91 tools: the rules its commands enforce, the
// words of its texts, the forms of its values, its schemas as hosts take them.

// callReq is a call of toolName with input by a workspace caller.
func callReq(toolName, input string) kernel.Request {
	return kernel.Request{Tool: toolName, Input: json.RawMessage(input), Caller: kernel.WorkspaceCaller("tester")}
}

// onLane is r asking for lane.
func onLane(r kernel.Request, lane string) kernel.Request {
	r.Lane = lane
	return r
}

// TestConstraintRefusalsNameProperties: a call that breaks a rule the command enforces is
// refused at validation, before any lane runs, with a message naming properties and the
// rule in the details.
func TestConstraintRefusalsNameProperties(t *testing.T) {
	k := newCorpusKernel(t, kernel.View{})
	cases := []struct {
		tool, input, message string
		properties           []string
	}{
		{"delegation_list", `{}`, "delegation:list: invalid input: one of wu, initiative is required", []string{"wu", "initiative"}},
		{"delegation:list", `{"wu":"WU-1","initiative":"INIT-1"}`, "delegation:list: invalid input: wu and initiative cannot be given together", []string{"wu", "initiative"}},
		{"wu_infer_lane", `{}`, "wu:infer-lane: invalid input: one of id, paths, desc is required", []string{"id", "paths", "desc"}},
		{"wu:infer-lane", `{"paths":[]}`, "wu:infer-lane: invalid input: one of id, paths, desc is required", []string{"id", "paths", "desc"}},
		{"initiative:edit", `{"id":"INIT-1","phase_id":2}`, "initiative:edit: invalid input: phase_id and phase_status must be given together", []string{"phase_id", "phase_status"}},
		{"wu:recover", `{"id":"WU-1","action":"reset"}`, "wu:recover: invalid input: force is required when action is reset or nuke", []string{"action", "force"}},
		{"wu:recover", `{"id":"WU-1","action":"nuke","force":false}`, "wu:recover: invalid input: force is required when action is reset or nuke", []string{"action", "force"}},
		{"wu:done", `{"id":"WU-1","skip_gates":true,"fix_wu":"WU-2"}`, "wu:done: invalid input: skip_gates and reason must be given together", []string{"skip_gates", "reason"}},
		{"wu:unlock-lane", `{"list":true,"lane":"Core"}`, "wu:unlock-lane: invalid input: list and lane cannot be given together", []string{"list", "lane"}},
		{"wu:create", `{"lane":"Core","title":"t","phase":2}`, "wu:create: invalid input: phase requires initiative", []string{"phase", "initiative"}},
		{"mem:triage", `{"promote":"mem-1a2b"}`, "mem:triage: invalid input: promote requires lane", []string{"promote", "lane"}},
	}
	for _, tc := range cases {
		t.Run(tc.tool+tc.input, func(t *testing.T) {
			kerneltest.RuleRefused(t, k.Call(context.Background(), callReq(tc.tool, tc.input)), tc.message, tc.properties)
		})
	}
	// A positional the command requires is a required property.
	res := k.Call(context.Background(), callReq("initiative_status", `{}`))
	require.NotNil(t, res.Output.Error)
	assert.Equal(t, tool.CodeInvalidInput, res.Output.Error.Code)
	assert.Equal(t, "/id", res.Output.Error.Details.(map[string]any)["path"])
}

// TestConstraintsPassGoodCalls: calls that keep the rules get past validation (whatever
// the lane then says about the empty workspace).
func TestConstraintsPassGoodCalls(t *testing.T) {
	k := newCorpusKernel(t, kernel.View{})
	for _, c := range []struct{ tool, input string }{
		{"delegation:list", `{"wu":"WU-1"}`},
		{"wu:infer-lane", `{"desc":"docs"}`},
		{"wu:recover", `{"id":"WU-1","action":"resume"}`},
		{"wu:unlock-lane", `{"list":true,"force":false}`},
		{"initiative:status", `{"id":"INIT-1"}`},
	} {
		res := k.Call(context.Background(), callReq(c.tool, c.input))
		if res.Output.Error != nil {
			assert.NotEqual(t, tool.CodeInvalidInput, res.Output.Error.Code, "%s %s: %s", c.tool, c.input, res.Output.Error.Message)
		}
	}
}

// cliSyntax is what a tool text must not contain: flags (--name, a lone -x), positional
// placeholders (<NAME>), and the words "positional" and "flag".
var cliSyntax = []*regexp.Regexp{
	regexp.MustCompile(`(^|[^\w-])--[A-Za-z]`),
	regexp.MustCompile(`(^|[\s(\[,;])-[A-Za-z]\b`),
	regexp.MustCompile(`<[A-Z][A-Z0-9_-]*>`),
	regexp.MustCompile(`(?i)\bpositional\b`),
	regexp.MustCompile(`(?i)\bflags?\b`),
	regexp.MustCompile("`"),
}

// TestToolTextsSpeakTool: no description of any of the 91 tools, nor of any of their
// properties, speaks CLI.
func TestToolTextsSpeakTool(t *testing.T) {
	k := newCorpusKernel(t, kernel.View{})
	specs := map[string]tool.Spec{}
	for _, s := range k.Tools() {
		specs[s.Name] = s
	}
	// The tools the corpus commands and the native-only tools make.
	names := map[string]bool{}
	for _, c := range commands.Default.All() {
		names[c.Name] = true
	}
	for _, n := range nativetools.Default.All() {
		names[n.Spec.Name] = true
	}
	require.Len(t, names, 91)
	texts := 0
	for name := range names {
		s, ok := specs[name]
		require.True(t, ok, name)
		check := func(where, text string) {
			texts++
			for _, re := range cliSyntax {
				assert.False(t, re.MatchString(text), "%s %s speaks CLI (%s): %q", name, where, re, text)
			}
		}
		check("description", s.Description)
		for prop, p := range s.InputSchema.Properties {
			check("property "+prop, p.Description)
		}
	}
	assert.Greater(t, texts, 400)
}

// TestUsageSpeaksProperties: a lane's own argument check (USAGE, for what the schema
// cannot say: a date that is no day) answers in property words on every lane, with the
// command's words kept in details.cli_message.
func TestUsageSpeaksProperties(t *testing.T) {
	k := newCorpusKernel(t, kernel.View{})
	cases := []struct {
		tool, input, lane, message, cli string
	}{
		{"initiative:create", `{"target_date":"2026-02-30","title":"x"}`, kernel.LaneAdapter, `invalid value "2026-02-30" for target_date: expected YYYY-MM-DD date`, `invalid value "2026-02-30" for --target-date: expected YYYY-MM-DD date`},
		{"initiative:create", `{"target_date":"2026-02-30","title":"x"}`, kernel.LaneNative, `invalid value "2026-02-30" for target_date: expected YYYY-MM-DD date`, `invalid value "2026-02-30" for --target-date: expected YYYY-MM-DD date`},
		{"flow:report", `{"start":"2026-02-30"}`, kernel.LaneAdapter, `invalid value "2026-02-30" for start: expected YYYY-MM-DD date`, `invalid value "2026-02-30" for --start: expected YYYY-MM-DD date`},
		{"flow:report", `{"start":"2026-02-30"}`, kernel.LaneNative, `invalid value "2026-02-30" for start: expected YYYY-MM-DD date`, `invalid value "2026-02-30" for --start: expected YYYY-MM-DD date`},
	}
	for _, tc := range cases {
		t.Run(tc.tool+"/"+tc.lane+tc.input, func(t *testing.T) {
			res := k.Call(context.Background(), onLane(callReq(tc.tool, tc.input), tc.lane))
			require.NotNil(t, res.Output.Error)
			assert.Equal(t, tool.CodeUsage, res.Output.Error.Code)
			assert.Equal(t, tc.lane, res.Receipt.Lane, "the lane answered, not validation")
			assert.Equal(t, tc.message, res.Output.Error.Message)
			details, ok := res.Output.Error.Details.(map[string]any)
			require.True(t, ok, "details %T", res.Output.Error.Details)
			assert.Equal(t, tc.cli, details["cli_message"])
		})
	}
}

// TestMalformedValuesNeverReachALane: a value the command's flag would refuse by its form
// (a WU id, a duration, a status word, a range) is refused by the schema, on whichever
// lane the call asks for, naming the property: no lane runs.
func TestMalformedValuesNeverReachALane(t *testing.T) {
	k := newCorpusKernel(t, kernel.View{})
	both := []string{kernel.LaneAdapter, kernel.LaneNative}
	for _, tc := range []struct {
		tool, input, path string
		lanes             []string
	}{
		{"wu:status", `{"id":"nope"}`, "/id", both},
		{"initiative:status", `{"id":""}`, "/id", both},
		{"wu:block", `{"id":"WU-1","reason":"  "}`, "/reason", both},
		{"mem:delete", `{"older_than":"soon"}`, "/older_than", both},
		{"backlog:status", `{"status":["ready","Done"]}`, "/status/1", both},
		{"flow:bottlenecks", `{"limit":-1}`, "/limit", both},
		{"mem:cleanup", `{"ttl":"a week"}`, "/ttl", []string{kernel.LaneAdapter}}, // not migrated
	} {
		for _, lane := range tc.lanes {
			t.Run(tc.tool+"/"+lane, func(t *testing.T) {
				res := k.Call(context.Background(), onLane(callReq(tc.tool, tc.input), lane))
				require.NotNil(t, res.Output.Error)
				assert.Equal(t, tool.CodeInvalidInput, res.Output.Error.Code)
				assert.Equal(t, tc.path, res.Output.Error.Details.(map[string]any)["path"])
				assert.Empty(t, res.Receipt.Lane, "refused before any lane")
			})
		}
	}
}

// TestSchemasHostsAccept: no input schema of the 91 tools has a top-level anyOf, allOf
// or oneOf, or a $ref anywhere (hosts refuse them), every one is an object, and every
// one resolves for validation (the kernel resolves a schema on its tool's first call).
func TestSchemasHostsAccept(t *testing.T) {
	k := newCorpusKernel(t, kernel.View{})
	withRules := 0
	for _, s := range k.Tools() {
		in := s.InputSchema
		assert.Equal(t, "object", in.Type, s.Name)
		assert.Nil(t, in.AnyOf, s.Name)
		assert.Nil(t, in.AllOf, s.Name)
		assert.Nil(t, in.OneOf, s.Name)
		raw, err := json.Marshal(in)
		require.NoError(t, err)
		assert.NotContains(t, string(raw), `"$ref"`, s.Name)
		_, err = tool.NewChecker(in)
		assert.NoError(t, err, "%s: the input schema resolves", s.Name)
		if in.Not != nil {
			withRules++
		}
	}
	assert.GreaterOrEqual(t, withRules, 16, "tools whose schema carries rules")
}
