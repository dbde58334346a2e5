package kernel_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/kerneltest"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// TestUndescribedRuleHasAPlainMessage: a schema written by hand may forbid combinations
// without describing them; the refusal still says what happened.
func TestUndescribedRuleHasAPlainMessage(t *testing.T) {
	reg := native.NewRegistry()
	var s jsonschema.Schema
	require.NoError(t, json.Unmarshal([]byte(`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},
		"additionalProperties":false,"not":{"required":["a","b"]}}`), &s))
	require.NoError(t, reg.Add(native.Raw(tool.Spec{Name: "test:pair", Description: "pair", InputSchema: &s,
		Annotations: tool.Annotations{ReadOnlyHint: true}},
		func(context.Context, *tool.Env, json.RawMessage) tool.Output { return tool.OK(nil) })))
	k, _ := newKernel(t, &probe{}, func(c *assemble.Config) { c.Native = reg })
	res := k.Call(context.Background(), req("test:pair", `{"a":"1","b":"2"}`))
	require.NotNil(t, res.Output.Error)
	assert.Equal(t, tool.CodeInvalidInput, res.Output.Error.Code)
	assert.Equal(t, "test:pair: invalid input: the input matches a combination the tool forbids", res.Output.Error.Message)
	assert.Equal(t, []string{"a", "b"}, res.Output.Error.Details.(map[string]any)["properties"])
	ok := k.Call(context.Background(), req("test:pair", `{"a":"1"}`))
	assert.True(t, ok.Output.Success, "%+v", ok.Output.Error)
}

// deployCommands is the legacy command fx:deploy, with rules between its inputs declared
// as a program declares them (legacy.MetaConstraints), a required positional and a
// typed flag.
func deployCommands(t *testing.T) *legacy.Registry {
	r := legacy.NewRegistry()
	app := func() *cli.App {
		return &cli.App{Name: "fx:deploy", Usage: "deploy a release", ArgsUsage: "<RELEASE>",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "target", Usage: "where to deploy"},
				&cli.StringFlag{Name: "config", Usage: "settings file"},
				&cli.StringFlag{Name: "region", Usage: "region of the target"},
				&cli.BoolFlag{Name: "execute", Usage: "really deploy"},
				&cli.StringFlag{Name: "mode", Usage: "fast or safe"},
				&cli.IntFlag{Name: "limit", Usage: "at most this many hosts"},
			},
			Metadata: map[string]any{legacy.MetaConstraints: []tool.Constraint{
				{Kind: tool.Required, Properties: []string{"release"}},
				{Kind: tool.AnyOf, Properties: []string{"target", "config"}},
				{Kind: tool.Exclusive, Properties: []string{"target", "config"}},
				{Kind: tool.Together, Properties: []string{"target", "region"}},
				{Kind: tool.Requires, Properties: []string{"mode", "execute"}, Values: []any{"fast"}},
			}},
		}
	}
	require.NoError(t, r.Add(legacy.Command{Name: "fx:deploy", New: app, Main: func(context.Context) {}}))
	return r
}

// TestRuleRefusalsNameProperties: a call that breaks a rule the command declares is
// refused at validation, before any lane runs, with a message naming properties and the
// rule in the details; a value of the wrong form, or a missing required positional, is
// refused naming its path; a call keeping the rules reaches the lane.
func TestRuleRefusalsNameProperties(t *testing.T) {
	ad := &fakeAdapter{}
	k, _ := newKernel(t, &probe{}, func(c *assemble.Config) {
		c.Commands, c.Lanes = deployCommands(t), ad.lanes()
		c.Policy = []kernel.Rule{{Decision: kernel.Allow}}
	})
	for _, tc := range []struct {
		input, message string
		properties     []string
	}{
		{`{"release":"r1"}`, "fx:deploy: invalid input: one of target, config is required", []string{"target", "config"}},
		{`{"release":"r1","target":"eu","region":"west","config":"c.yaml"}`, "fx:deploy: invalid input: target and config cannot be given together", []string{"target", "config"}},
		{`{"release":"r1","target":"eu"}`, "fx:deploy: invalid input: target and region must be given together", []string{"target", "region"}},
		{`{"release":"r1","config":"c.yaml","mode":"fast"}`, "fx:deploy: invalid input: execute is required when mode is fast", []string{"mode", "execute"}},
	} {
		t.Run(tc.input, func(t *testing.T) {
			kerneltest.RuleRefused(t, k.Call(context.Background(), req("fx_deploy", tc.input)), tc.message, tc.properties)
		})
	}
	for _, tc := range []struct{ input, path string }{
		{`{"config":"c.yaml"}`, "/release"},
		{`{"release":"r1","config":"c.yaml","limit":"many"}`, "/limit"},
	} {
		res := k.Call(context.Background(), req("fx:deploy", tc.input))
		require.NotNil(t, res.Output.Error, tc.input)
		assert.Equal(t, tool.CodeInvalidInput, res.Output.Error.Code, tc.input)
		assert.Equal(t, tc.path, res.Output.Error.Details.(map[string]any)["path"], tc.input)
		assert.Empty(t, res.Receipt.Lane, "refused before any lane ran")
	}
	assert.Empty(t, ad.calls, "no refused call reached a lane")

	for _, in := range []string{`{"release":"r1","config":"c.yaml"}`, `{"release":"r1","target":"eu","region":"west","mode":"fast","execute":true}`} {
		res := k.Call(context.Background(), req("fx:deploy", in))
		assert.True(t, res.Output.Success, "%s: %+v", in, res.Output.Error)
	}
	assert.Len(t, ad.calls, 2, "the calls that keep the rules reached the lane")
}

// usageLane is a legacy lane whose command refuses its argument the way a command's own
// check does (USAGE, in the command's words).
type usageLane struct{ name string }

func (l usageLane) Name() string { return l.name }

func (l usageLane) Run(context.Context, kernel.LaneCall) tool.Output {
	return tool.Fail(tool.CodeUsage, `invalid value "2026-02-30" for --target-date: expected YYYY-MM-DD date`)
}

type planIn struct {
	TargetDate string `json:"target_date,omitempty"`
}

// TestUsageSpeaksProperties: a lane's own argument check (USAGE, for what the schema
// cannot say: a date that is no day) answers in property words on every lane, with the
// command's words kept in details.cli_message.
func TestUsageSpeaksProperties(t *testing.T) {
	k, _ := newKernel(t, &probe{}, func(c *assemble.Config) {
		r := testRegistry(t, &probe{})
		require.NoError(t, r.Add(native.New(tool.Spec{Name: "fx:plan", Description: "plan"},
			func(context.Context, *tool.Env, planIn) tool.Output {
				return tool.Fail(tool.CodeUsage, `invalid value "2026-02-30" for --target-date: expected YYYY-MM-DD date`)
			})))
		cmds := legacy.NewRegistry()
		require.NoError(t, cmds.Add(legacy.Command{Name: "fx:plan", Main: func(context.Context) {}, New: func() *cli.App {
			return &cli.App{Name: "fx:plan", Usage: "plan", Flags: []cli.Flag{&cli.StringFlag{Name: "target-date", Usage: "when"}}}
		}}))
		c.Native, c.Commands = r, cmds
		c.Lanes = []kernel.Lane{usageLane{kernel.LaneAdapter}, usageLane{kernel.LaneSubprocess}}
		c.Policy = []kernel.Rule{{Decision: kernel.Allow}}
	})
	for _, lane := range []string{kernel.LaneAdapter, kernel.LaneNative} {
		t.Run(lane, func(t *testing.T) {
			res := k.Call(context.Background(), withLane(req("fx:plan", `{"target_date":"2026-02-30"}`), lane))
			require.NotNil(t, res.Output.Error)
			assert.Equal(t, tool.CodeUsage, res.Output.Error.Code)
			assert.Equal(t, lane, res.Receipt.Lane, "the lane answered, not validation")
			assert.Equal(t, `invalid value "2026-02-30" for target_date: expected YYYY-MM-DD date`, res.Output.Error.Message)
			details, ok := res.Output.Error.Details.(map[string]any)
			require.True(t, ok, "details %T", res.Output.Error.Details)
			assert.Equal(t, `invalid value "2026-02-30" for --target-date: expected YYYY-MM-DD date`, details["cli_message"])
		})
	}
}
