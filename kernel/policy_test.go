package kernel_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

type doctorIn struct {
	Fix    bool `json:"fix,omitempty"`
	DryRun bool `json:"dry_run,omitempty"`
}

type recoverIn struct {
	Action string `json:"action,omitempty"`
}

// withEffectTools adds tools shaped like state:doctor (destructive; read-only without
// fix or with dry_run) and wu:recover (destructive; read-only without action, writing
// with action=resume) to the test registry; ran counts the calls that reached them.
func withEffectTools(t *testing.T, ran *int) kopt {
	return func(c *assemble.Config) {
		r := testRegistry(t, &probe{})
		require.NoError(t, r.Add(native.New(tool.Spec{Name: "test:doctor", Description: "check, and fix with fix",
			Annotations: tool.Annotations{DestructiveHint: true},
			Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("fix")), tool.ReadOnlyWhen(tool.IsSet("dry_run"))}},
			func(ctx context.Context, env *tool.Env, in doctorIn) tool.Output { *ran++; return tool.OK(in) })))
		require.NoError(t, r.Add(native.New(tool.Spec{Name: "test:recover", Description: "diagnose, and act with action",
			Annotations: tool.Annotations{DestructiveHint: true},
			Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("action")), tool.WritesWhen(tool.IsEqual("action", "resume"))}},
			func(ctx context.Context, env *tool.Env, in recoverIn) tool.Output { *ran++; return tool.OK(in) })))
		c.Native = r
	}
}

// TestPolicyFollowsTheCallsEffect: over a non-interactive caller and the default policy,
// a destructive tool's harmless modes run and its destructive ones ask; the receipt
// records each call's effect, and rules match the effect, not the worst case.
func TestPolicyFollowsTheCallsEffect(t *testing.T) {
	yes, no := true, false
	readOnlyOnly := []kernel.Rule{{Name: "ro", ReadOnly: &yes, Decision: kernel.Allow}, {Name: "rest", Decision: kernel.Deny}}
	writesOK := []kernel.Rule{{Name: "no-destroy", Destructive: &yes, Decision: kernel.Deny}, {Name: "writes", Destructive: &no, Decision: kernel.Allow}}
	for _, tc := range []struct {
		name, tool, input string
		policy            []kernel.Rule
		effect, decision  string
		rule, code        string
	}{
		{name: "check is read-only", tool: "test:doctor", input: `{}`, effect: "read_only", decision: "allow", rule: "default-allow"},
		{name: "fix false is no fix", tool: "test:doctor", input: `{"fix":false}`, effect: "read_only", decision: "allow", rule: "default-allow"},
		{name: "fix asks", tool: "test:doctor", input: `{"fix":true}`, effect: "destructive", decision: "ask", rule: "default-destructive-ask", code: tool.CodeApprovalRequired},
		{name: "fix dry run is read-only", tool: "test:doctor", input: `{"fix":true,"dry_run":true}`, effect: "read_only", decision: "allow", rule: "default-allow"},
		{name: "diagnose", tool: "test:recover", input: `{}`, effect: "read_only", decision: "allow", rule: "default-allow"},
		{name: "resume writes", tool: "test:recover", input: `{"action":"resume"}`, effect: "write", decision: "allow", rule: "default-allow"},
		{name: "nuke asks", tool: "test:recover", input: `{"action":"nuke"}`, effect: "destructive", decision: "ask", rule: "default-destructive-ask", code: tool.CodeApprovalRequired},
		{name: "no effects: worst case", tool: "test:destroy", input: `{}`, effect: "destructive", decision: "ask", rule: "default-destructive-ask", code: tool.CodeApprovalRequired},
		{name: "read_only rule matches a read-only mode", tool: "test:doctor", input: `{}`, policy: readOnlyOnly, effect: "read_only", decision: "allow", rule: "ro"},
		{name: "read_only rule skips the fixing mode", tool: "test:doctor", input: `{"fix":true}`, policy: readOnlyOnly, effect: "destructive", decision: "deny", rule: "rest", code: tool.CodePolicyDenied},
		{name: "destructive rule skips a writing mode", tool: "test:recover", input: `{"action":"resume"}`, policy: writesOK, effect: "write", decision: "allow", rule: "writes"},
		{name: "destructive rule matches a destructive mode", tool: "test:recover", input: `{"action":"reset"}`, policy: writesOK, effect: "destructive", decision: "deny", rule: "no-destroy", code: tool.CodePolicyDenied},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ran := 0
			k, ws := newKernel(t, &probe{}, withEffectTools(t, &ran), func(c *assemble.Config) {
				if tc.policy != nil {
					c.Policy = tc.policy
				}
			})
			res := k.Call(context.Background(), req(tc.tool, tc.input))
			if tc.code == "" {
				require.True(t, res.Output.Success, "%+v", res.Output.Error)
				assert.Equal(t, 1, ran)
			} else {
				require.NotNil(t, res.Output.Error)
				assert.Equal(t, tc.code, res.Output.Error.Code, res.Output.Error.Message)
				assert.Zero(t, ran, "a refused call never reaches its tool")
				assert.Contains(t, res.Output.Error.Message, tc.rule)
			}
			recs := receipts(t, ws)
			require.Len(t, recs, 1)
			assert.Equal(t, tc.effect, recs[0].Effect)
			assert.Equal(t, tc.decision, recs[0].Decision)
			assert.Equal(t, tc.rule, recs[0].Rule)
		})
	}
}

// TestRefusalShowsTheRuleThatWouldAllowIt: an APPROVAL_REQUIRED names its rule and the
// call's effect, lists the harmless modes the policy already allows, and carries a
// policy snippet that, written to .cmdbridge/config.yaml as given, lets the same call
// run while every other tool keeps the default policy.
func TestRefusalShowsTheRuleThatWouldAllowIt(t *testing.T) {
	ran := 0
	k, _ := newKernel(t, &probe{}, withEffectTools(t, &ran))
	res := k.Call(context.Background(), req("test:doctor", `{"fix":true}`))
	require.NotNil(t, res.Output.Error)
	require.Equal(t, tool.CodeApprovalRequired, res.Output.Error.Code)
	details := res.Output.Error.Details.(map[string]any)
	assert.Equal(t, "default-destructive-ask", details["rule"])
	assert.Equal(t, "destructive", details["effect"])
	assert.Equal(t, []string{"without fix (read-only)", "with dry_run (read-only)"}, details["allowed_without"])
	msg := res.Output.Error.Message
	assert.Contains(t, msg, "allow-test-doctor")
	assert.Contains(t, msg, kernel.ConfigFile)
	assert.Contains(t, msg, "without fix (read-only)")
	snippet, _ := details["config"].(string)
	require.NotEmpty(t, snippet)

	// Written as given, the snippet allows the call, and only this tool: the default
	// rules it repeats still ask for other destructive tools.
	ws := t.TempDir()
	cfgPath := filepath.Join(ws, kernel.ConfigFile)
	require.NoError(t, os.MkdirAll(filepath.Dir(cfgPath), 0o755))
	require.NoError(t, os.WriteFile(cfgPath, []byte(snippet), 0o644))
	fc, err := kernel.LoadFileConfig(cfgPath)
	require.NoError(t, err)
	k2, _ := newKernel(t, &probe{}, withEffectTools(t, &ran), func(c *assemble.Config) { require.NoError(t, fc.Apply(&c.Config)) })
	res = k2.Call(context.Background(), req("test:doctor", `{"fix":true}`))
	require.True(t, res.Output.Success, "%+v", res.Output.Error)
	assert.Equal(t, "allow-test-doctor", res.Receipt.Rule)
	res = k2.Call(context.Background(), req("test:destroy", `{}`))
	require.NotNil(t, res.Output.Error)
	assert.Equal(t, tool.CodeApprovalRequired, res.Output.Error.Code)
	res = k2.Call(context.Background(), req("test:echo", `{}`))
	assert.True(t, res.Output.Success, "the default allow rule is kept")
}

// TestRefusalSnippetForAConfiguredPolicy: with a configured policy the snippet is the one
// rule to add, placed ahead of the rule that refused; added to the list, the call runs.
func TestRefusalSnippetForAConfiguredPolicy(t *testing.T) {
	policy := []kernel.Rule{
		{Name: "no-fixing", Tool: "test:doctor", Args: `"fix":true`, Decision: kernel.Deny, Priority: 5},
		{Name: "rest", Decision: kernel.Allow},
	}
	ran := 0
	k, _ := newKernel(t, &probe{}, withEffectTools(t, &ran), func(c *assemble.Config) { c.Policy = policy })
	res := k.Call(context.Background(), req("test:doctor", `{"fix":true}`))
	require.NotNil(t, res.Output.Error)
	require.Equal(t, tool.CodePolicyDenied, res.Output.Error.Code)
	details := res.Output.Error.Details.(map[string]any)
	assert.Equal(t, "no-fixing", details["rule"])
	snippet := details["config"].(string)
	assert.NotContains(t, snippet, "default-allow", "a configured policy is not replaced")

	cfgPath := filepath.Join(t.TempDir(), "config.yaml")
	require.NoError(t, os.WriteFile(cfgPath, []byte(snippet), 0o644))
	fc, err := kernel.LoadFileConfig(cfgPath)
	require.NoError(t, err)
	var added kernel.Config
	require.NoError(t, fc.Apply(&added))
	require.Len(t, added.Policy, 1)
	assert.Greater(t, added.Policy[0].Priority, 5)
	k2, _ := newKernel(t, &probe{}, withEffectTools(t, &ran), func(c *assemble.Config) {
		c.Policy = append(append([]kernel.Rule{}, policy...), added.Policy...)
	})
	res = k2.Call(context.Background(), req("test:doctor", `{"fix":true}`))
	require.True(t, res.Output.Success, "%+v", res.Output.Error)
}

// TestRequiredApprovalsHaveNoAllowSnippet: a tool that requires a person's approval
// cannot be allowed by a rule, and the refusal says so instead of offering one.
func TestRequiredApprovalsHaveNoAllowSnippet(t *testing.T) {
	k, _ := newKernel(t, &probe{}, func(c *assemble.Config) {
		r := testRegistry(t, &probe{})
		require.NoError(t, r.Add(native.New(tool.Spec{Name: "test:owner", RequiredApprovals: []string{"owner"}},
			func(ctx context.Context, env *tool.Env, in struct{}) tool.Output { return tool.OK(nil) })))
		c.Native = r
	})
	res := k.Call(context.Background(), req("test:owner", `{}`))
	require.NotNil(t, res.Output.Error)
	require.Equal(t, tool.CodeApprovalRequired, res.Output.Error.Code)
	details := res.Output.Error.Details.(map[string]any)
	assert.NotContains(t, details, "config")
	assert.Equal(t, []string{"owner"}, details["required_approvals"])
	assert.Contains(t, res.Output.Error.Message, "approval of a person")
}

// TestRequestApproverOverridesTheConfiguredOne: a call's own approver answers instead of
// Config.Approver, and ErrApprovalDeferred ends the call APPROVAL_REQUIRED (asked out of
// band) rather than denied, without running it.
func TestRequestApproverOverridesTheConfiguredOne(t *testing.T) {
	ran := 0
	k, ws := newKernel(t, &probe{}, withEffectTools(t, &ran), func(c *assemble.Config) {
		c.Approver = kernel.ApproverFunc(func(context.Context, kernel.ApprovalRequest) (bool, error) {
			return false, errors.New("the configured approver must not be asked")
		})
	})
	var asked []kernel.ApprovalRequest
	approve := func(ok bool, err error) kernel.Approver {
		return kernel.ApproverFunc(func(_ context.Context, r kernel.ApprovalRequest) (bool, error) {
			asked = append(asked, r)
			return ok, err
		})
	}
	r := interactive(req("test:doctor", `{"fix":true}`))
	r.Approver = approve(true, nil)
	res := k.Call(context.Background(), r)
	require.True(t, res.Output.Success, "%+v", res.Output.Error)
	assert.Equal(t, 1, ran)
	require.Len(t, asked, 1)
	assert.Equal(t, "test:doctor", asked[0].Tool)
	assert.Equal(t, "destructive", asked[0].Effect)
	assert.Equal(t, "default-destructive-ask", asked[0].Rule)
	assert.JSONEq(t, `{"fix":true}`, string(asked[0].Input))

	r.Approver = approve(false, kernel.ErrApprovalDeferred)
	res = k.Call(context.Background(), r)
	require.NotNil(t, res.Output.Error)
	assert.Equal(t, tool.CodeApprovalRequired, res.Output.Error.Code)
	assert.Equal(t, true, res.Output.Error.Details.(map[string]any)["asked_out_of_band"])
	assert.Equal(t, 1, ran, "a deferred approval runs nothing")

	r.Approver = approve(false, nil)
	res = k.Call(context.Background(), r)
	require.NotNil(t, res.Output.Error)
	assert.Equal(t, tool.CodeApprovalDenied, res.Output.Error.Code)

	recs := receipts(t, ws)
	require.Len(t, recs, 3)
	assert.Equal(t, []string{"approved", "ask", "rejected"}, []string{recs[0].Decision, recs[1].Decision, recs[2].Decision})
}

// TestEffectsAreCheckedWhenTheKernelIsBuilt: an effect over an unknown property, or one
// claiming more than the tool's annotations, fails New naming the tool.
func TestEffectsAreCheckedWhenTheKernelIsBuilt(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec tool.Spec
		want string
	}{
		{"unknown property", tool.Spec{Name: "test:bad", Annotations: tool.Annotations{DestructiveHint: true},
			Effects: []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("nope"))}}, `"nope" is not an input property`},
		{"destructive beyond the annotations", tool.Spec{Name: "test:bad",
			Effects: []tool.Effect{{When: []tool.Condition{tool.IsSet("fix")}, Destructive: true}}}, "destructive but the tool's annotations are not"},
		{"effects on a read-only tool", tool.Spec{Name: "test:bad", Annotations: tool.Annotations{ReadOnlyHint: true},
			Effects: []tool.Effect{tool.WritesWhen(tool.IsSet("fix"))}}, "read-only tool"},
		{"no condition", tool.Spec{Name: "test:bad", Annotations: tool.Annotations{DestructiveHint: true},
			Effects: []tool.Effect{tool.ReadOnlyWhen()}}, "no condition"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := native.NewRegistry()
			require.NoError(t, r.Add(native.New(tc.spec,
				func(ctx context.Context, env *tool.Env, in doctorIn) tool.Output { return tool.OK(nil) })))
			_, err := assemble.Kernel(assemble.Config{Config: kernel.Config{Workspace: t.TempDir()}, Native: r})
			require.Error(t, err)
			assert.True(t, strings.Contains(err.Error(), tc.want) && strings.Contains(err.Error(), "test:bad"), err.Error())
		})
	}
}
