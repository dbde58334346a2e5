package kernel_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

func TestStateMachineEveryPair(t *testing.T) {
	want := map[kernel.State]map[kernel.Event]kernel.State{
		kernel.Admitted: {kernel.EvRefuse: kernel.Refused, kernel.EvDispatch: kernel.Running,
			kernel.EvTimeout: kernel.TimedOut, kernel.EvCancel: kernel.Cancelled},
		kernel.Running: {kernel.EvComplete: kernel.Done, kernel.EvTimeout: kernel.TimedOut,
			kernel.EvCancel: kernel.Cancelled},
	}
	for _, s := range kernel.States {
		for _, e := range kernel.Events {
			t.Run(s.String()+"/"+e.String(), func(t *testing.T) {
				next, ok := kernel.Next(s, e)
				w, allowed := want[s][e]
				assert.Equal(t, allowed, ok)
				if allowed {
					assert.Equal(t, w, next)
					assert.False(t, s.Terminal())
				} else {
					assert.Equal(t, s, next, "a refused event leaves the state alone")
				}
			})
		}
	}
}

func TestRefusalsCarryCodesAndReceipts(t *testing.T) {
	yes := true
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name   string
		opts   []kopt
		ctx    context.Context
		req    kernel.Request
		code   string
		status string
		detail map[string]any
	}{
		{name: "unknown tool", req: req("nope:nope", `{}`), code: tool.CodeToolNotFound, status: evidence.StatusRefused},
		{name: "excluded", opts: []kopt{func(c *assemble.Config) { c.Governance.Excluded = []string{"TestEcho"} }},
			req: req("test_echo", `{}`), code: tool.CodeToolDisabled, status: evidence.StatusRefused},
		{name: "disabled", opts: []kopt{func(c *assemble.Config) { c.Governance.Disabled = []string{"software-delivery:test-echo"} }},
			req: req("test:echo", `{}`), code: tool.CodeToolDisabled, status: evidence.StatusRefused},
		{name: "not in allowlist", opts: []kopt{func(c *assemble.Config) { c.Governance.Allowed = []string{"test:read"} }},
			req: req("test:echo", `{}`), code: tool.CodeToolDisabled, status: evidence.StatusRefused},
		{name: "empty allowlist denies all", opts: []kopt{func(c *assemble.Config) { c.Governance.Allowed = []string{} }},
			req: req("test:echo", `{}`), code: tool.CodeToolDisabled, status: evidence.StatusRefused},
		{name: "unknown property", req: req("test:echo", `{"txt":"a"}`), code: tool.CodeInvalidInput,
			status: evidence.StatusRefused, detail: map[string]any{"path": "/txt", "reason": `unknown property (did you mean "text"?)`}},
		{name: "wrong item type", req: req("test:echo", `{"tags":["a",3]}`), code: tool.CodeInvalidInput,
			status: evidence.StatusRefused, detail: map[string]any{"path": "/tags/1", "reason": `type: 3 has type "integer", want "string"`}},
		{name: "missing required", req: req("wu:edit", `{"force":true}`), code: tool.CodeInvalidInput,
			status: evidence.StatusRefused, detail: map[string]any{"path": "/id", "reason": "required property is missing"}},
		{name: "not json", req: req("test:echo", `{`), code: tool.CodeInvalidInput, status: evidence.StatusRefused},
		{name: "scope", req: req("test:write", `{"path":"../x"}`), code: tool.CodeScopeDenied, status: evidence.StatusRefused},
		{name: "policy deny", opts: []kopt{func(c *assemble.Config) {
			c.Policy = []kernel.Rule{{Name: "no-echo-secrets", Tool: "test:echo", Args: `"text":"secret`, Decision: kernel.Deny}, {Tool: "*", Decision: kernel.Allow}}
		}}, req: req("test:echo", `{"text":"secret stuff"}`), code: tool.CodePolicyDenied, status: evidence.StatusRefused},
		{name: "default non-interactive is deny", opts: []kopt{func(c *assemble.Config) { c.Policy = []kernel.Rule{} }},
			req: req("test:echo", `{}`), code: tool.CodePolicyDenied, status: evidence.StatusRefused},
		{name: "ask non-interactive", req: req("test:destroy", `{}`), code: tool.CodeApprovalRequired, status: evidence.StatusRefused},
		{name: "ask interactive, rejected", opts: []kopt{func(c *assemble.Config) {
			c.Approver = kernel.ApproverFunc(func(context.Context, kernel.ApprovalRequest) (bool, error) { return false, nil })
		}}, req: interactive(req("test:destroy", `{}`)), code: tool.CodeApprovalDenied, status: evidence.StatusRefused},
		{name: "ask interactive, approval deadline", opts: []kopt{func(c *assemble.Config) {
			c.ApprovalTimeout = 10 * time.Millisecond
			c.Approver = kernel.ApproverFunc(func(ctx context.Context, _ kernel.ApprovalRequest) (bool, error) {
				<-ctx.Done()
				return false, ctx.Err()
			})
		}}, req: interactive(req("test:destroy", `{}`)), code: tool.CodeApprovalDenied, status: evidence.StatusRefused},
		{name: "interactive rule", opts: []kopt{func(c *assemble.Config) {
			c.Policy = []kernel.Rule{{Interactive: &yes, Decision: kernel.Deny}, {Decision: kernel.Allow}}
		}}, req: interactive(req("test:echo", `{}`)), code: tool.CodePolicyDenied, status: evidence.StatusRefused},
		{name: "timeout", req: req("test:block", `{}`), code: tool.CodeTimeout, status: evidence.StatusTimeout},
		{name: "cancelled", ctx: cancelled, req: req("test:echo", `{}`), code: tool.CodeCancelled, status: evidence.StatusCancelled},
		{name: "lane unavailable", req: withLane(req("test:echo", `{}`), kernel.LaneSubprocess), code: tool.CodeInvalidInput, status: evidence.StatusRefused},
		{name: "lane panics", opts: []kopt{func(c *assemble.Config) { c.Lanes = (&fakeAdapter{panic: true}).lanes() }},
			req: req("wu:edit", `{"id":"WU-1"}`), code: tool.CodeExecutionFailed, status: evidence.StatusFailed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k, ws := newKernel(t, &probe{}, tc.opts...)
			ctx := tc.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			res := k.Call(ctx, tc.req)
			require.NotNil(t, res.Output.Error, "%+v", res.Output)
			assert.False(t, res.Output.Success)
			assert.Equal(t, tc.code, res.Output.Error.Code, res.Output.Error.Message)
			assert.True(t, tool.KnownCode(res.Output.Error.Code))
			for key, v := range tc.detail {
				assert.Equal(t, v, res.Output.Error.Details.(map[string]any)[key])
			}
			recs := receipts(t, ws)
			require.Len(t, recs, 1)
			assert.Equal(t, res.Receipt.ID, recs[0].ID)
			assert.Equal(t, tc.code, recs[0].ErrorCode)
			assert.Equal(t, tc.status, recs[0].Status)
			assert.Equal(t, res.Output.Metadata["call_id"], recs[0].ID)
		})
	}
}

func interactive(r kernel.Request) kernel.Request { r.Interactive = true; return r }
func withLane(r kernel.Request, lane string) kernel.Request {
	r.Lane = lane
	return r
}

func TestSuccessfulCallsOnEveryLane(t *testing.T) {
	k, ws := newKernel(t, &probe{}, func(c *assemble.Config) {
		c.Approver = kernel.ApproverFunc(func(context.Context, kernel.ApprovalRequest) (bool, error) { return true, nil })
	})
	res := k.Call(context.Background(), req("TestEcho", `{"text":"hi","count":2}`))
	require.True(t, res.Output.Success, "%+v", res.Output.Error)
	assert.Equal(t, echoIn{Text: "hi", Count: 2}, res.Output.Data)
	assert.Equal(t, "native", res.Output.Metadata["lane"])
	assert.Equal(t, "test:echo", res.Receipt.Tool)
	assert.Equal(t, "allow", res.Receipt.Decision)

	res = k.Call(context.Background(), req("wu_edit", `{"id":"WU-1"}`))
	require.True(t, res.Output.Success, "%+v", res.Output.Error)
	assert.Equal(t, "adapter", res.Receipt.Lane)
	require.NotNil(t, res.Receipt.ExitCode)
	assert.Equal(t, 0, *res.Receipt.ExitCode)

	res = k.Call(context.Background(), interactive(req("test:destroy", `{}`)))
	require.True(t, res.Output.Success, "%+v", res.Output.Error)
	assert.Equal(t, "approved", res.Receipt.Decision)

	// Same input, any key order: same input hash.
	a := k.Call(context.Background(), req("test:echo", `{"text":"x","count":1}`))
	b := k.Call(context.Background(), req("test:echo", `{ "count":1, "text":"x" }`))
	assert.Equal(t, a.Receipt.InputHash, b.Receipt.InputHash)
	assert.Len(t, receipts(t, ws), 5)
	require.NoError(t, k.Close())
	rep, err := evidence.Verify(filepath.Join(ws, ".cmdbridge", "evidence"))
	require.NoError(t, err)
	assert.True(t, rep.OK(), "%+v", rep.Problems)
	assert.Equal(t, int64(5), rep.Covered)
}

func TestTimeoutOverrideIsClamped(t *testing.T) {
	k, _ := newKernel(t, &probe{})
	r := req("test:block", `{}`)
	r.Timeout = time.Hour // clamped to the tool's 1s maximum
	// test:block fails at once, with EXECUTION_FAILED, when its deadline is further away
	// than its MaxTimeout: a timeout shows the clamp applied (no wall-clock bound).
	res := k.Call(context.Background(), r)
	require.NotNil(t, res.Output.Error)
	assert.Equal(t, tool.CodeTimeout, res.Output.Error.Code, res.Output.Error.Message)
	assert.GreaterOrEqual(t, res.Receipt.DurationUS, int64(900_000))
}

func TestNonInteractiveAskNeverWaits(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	waited := make(chan struct{}, 1)
	k, _ := newKernel(t, &probe{}, func(c *assemble.Config) {
		c.Approver = kernel.ApproverFunc(func(ctx context.Context, _ kernel.ApprovalRequest) (bool, error) {
			waited <- struct{}{}
			<-ctx.Done()
			return false, ctx.Err()
		})
	})
	res := k.Call(context.Background(), req("test:destroy", `{}`))
	assert.Equal(t, tool.CodeApprovalRequired, res.Output.Error.Code)
	assert.Empty(t, waited, "the approver must not be consulted")
	require.NoError(t, k.Close())
}

func TestStartupRejectsBadRegistries(t *testing.T) {
	cases := []struct {
		name string
		opt  kopt
		want string
	}{
		{"same name spelled differently", func(c *assemble.Config) { c.Commands = testCommands(t, "test-echo") }, "same name spelled differently"},
		{"reserved pack name", func(c *assemble.Config) { c.Commands = testCommands(t, "software-delivery") }, "reserved"},
		{"native route without native", func(c *assemble.Config) { c.Routes = map[string]string{"wu:edit": "native"} }, "needs an implementation"},
		{"unknown route", func(c *assemble.Config) { c.Routes = map[string]string{"test:echo": "teleport"} }, "unknown route"},
		{"governance names unknown tool", func(c *assemble.Config) { c.Governance.Disabled = []string{"wu:clam"} }, "unknown tool"},
		{"bad policy", func(c *assemble.Config) { c.Policy = []kernel.Rule{{Decision: "maybe"}} }, "decision"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := assemble.Config{
				Config: kernel.Config{
					Workspace: t.TempDir(),
					Pack:      testPack,
				},
				Native:   testRegistry(t, &probe{}),
				Commands: testCommands(t, "wu:edit"),
				Lanes:    (&fakeAdapter{}).lanes(),
			}
			tc.opt(&cfg)
			_, err := assemble.Kernel(cfg)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestManifestIsDeterministic(t *testing.T) {
	k1, _ := newKernel(t, &probe{}, func(c *assemble.Config) { c.Governance.Excluded = []string{"test:block"} })
	k2, _ := newKernel(t, &probe{}, func(c *assemble.Config) { c.Governance.Excluded = []string{"test:block"} })
	m1, err := k1.Manifest()
	require.NoError(t, err)
	m2, err := k2.Manifest()
	require.NoError(t, err)
	assert.Equal(t, string(m1), string(m2))
	assert.NotContains(t, string(m1), "test:block", "excluded tools are hidden")
	assert.Contains(t, string(m1), `"route": "adapter"`)
	assert.Contains(t, string(m1), `"route": "native"`)
	_, err = os.Stat(k1.Workspace())
	require.NoError(t, err)
}

func TestClosedKernelRefusesUnrecordedCalls(t *testing.T) {
	k, _ := newKernel(t, &probe{})
	require.NoError(t, k.Close())
	res := k.Call(context.Background(), req("test:echo", `{}`))
	require.NotNil(t, res.Output.Error)
	assert.Equal(t, tool.CodeExecutionFailed, res.Output.Error.Code)
	assert.Contains(t, res.Output.Metadata, "evidence_error")
}

func TestNativeEnvCarriesInteractive(t *testing.T) {
	reg := testRegistry(t, &probe{})
	require.NoError(t, reg.Add(native.New(tool.Spec{Name: "test:who", Annotations: tool.Annotations{ReadOnlyHint: true}},
		func(ctx context.Context, env *tool.Env, in struct{}) tool.Output {
			return tool.OK(map[string]any{"interactive": env.Interactive, "dir": env.Dir, "owner": env.Getenv("OWNER")})
		})))
	k, ws := newKernel(t, &probe{}, func(c *assemble.Config) {
		c.Native = reg
		c.LookupEnv = tool.EnvFromMap(map[string]string{"OWNER": "ada"})
	})
	for _, inter := range []bool{false, true} {
		r := req("test:who", `{}`)
		r.Interactive = inter
		res := k.Call(context.Background(), r)
		require.True(t, res.Output.Success, "%+v", res.Output.Error)
		real, err := filepath.EvalSymlinks(ws)
		require.NoError(t, err)
		assert.Equal(t, map[string]any{"interactive": inter, "dir": real, "owner": "ada"}, res.Output.Data)
	}
}

// TestToolNotesReachTheReceipt: what a native tool records with tool.Env.Note is on
// its receipt, chained and verified like the rest of it; a call that records nothing
// has no notes.
func TestToolNotesReachTheReceipt(t *testing.T) {
	k, ws := newKernel(t, &probe{})
	res := k.Call(context.Background(), req("test:echo", `{"text":"hi"}`))
	require.True(t, res.Output.Success, "%+v", res.Output.Error)
	assert.Equal(t, map[string]string{"echoed": "hi"}, res.Receipt.Notes)
	res = k.Call(context.Background(), req("test:echo", `{"count":1}`))
	require.True(t, res.Output.Success, "%+v", res.Output.Error)
	assert.Nil(t, res.Receipt.Notes)
	require.NoError(t, k.Close())
	recs := receipts(t, ws)
	require.Len(t, recs, 2)
	assert.Equal(t, map[string]string{"echoed": "hi"}, recs[0].Notes)
	assert.Nil(t, recs[1].Notes)
	_, err := evidence.Verify(filepath.Join(ws, ".cmdbridge", "evidence"))
	require.NoError(t, err)
}
