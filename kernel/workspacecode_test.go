package kernel_test

import (
	"context"
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

// TestDefaultPolicyAsksBeforeWorkspaceCode: under the default rules, with another tool
// allowed (the snippet an APPROVAL_REQUIRED refusal offers), a non-interactive call of a
// tool that runs workspace code (test:gates, runsCodeHint) is APPROVAL_REQUIRED with the
// usual how-to-allow details, and nothing runs; the receipt records the effect
// runs_code. (integration's TestRedTeamDefaultPolicyAsksBeforeWorkspaceCode replays the
// attack through the corpus's gates, wu:prep, wu:done and wu:sandbox.)
func TestDefaultPolicyAsksBeforeWorkspaceCode(t *testing.T) {
	ran := 0
	k, ws := newKernel(t, &probe{}, func(c *assemble.Config) {
		r := testRegistry(t, &probe{})
		require.NoError(t, r.Add(native.New(tool.Spec{Name: "test:gates", Description: "run the workspace's gates",
			Annotations: tool.Annotations{RunsCodeHint: true}},
			func(ctx context.Context, env *tool.Env, in struct{}) tool.Output { ran++; return tool.OK(nil) })))
		c.Native = r
		c.Policy = append([]kernel.Rule{{Name: "allow-test-write", Tool: "test:write", Decision: kernel.Allow, Priority: -999}},
			kernel.DefaultPolicy()...)
	})
	attacker := kernel.Caller{Subject: "attacker", Write: []string{"."}}
	w := k.Call(context.Background(), kernel.Request{Tool: "test:write", Input: []byte(`{"path":"workspace.yaml"}`), Caller: attacker})
	require.True(t, w.Output.Success, "the caller may write the configuration: %+v", w.Output.Error)

	res := k.Call(context.Background(), kernel.Request{Tool: "test:gates", Input: []byte(`{}`), Caller: attacker})
	require.NotNil(t, res.Output.Error, "test:gates ran: %+v", res.Output)
	assert.Equal(t, tool.CodeApprovalRequired, res.Output.Error.Code, res.Output.Error.Message)
	details, _ := res.Output.Error.Details.(map[string]any)
	assert.Equal(t, "runs_code", details["effect"])
	assert.Equal(t, "default-runs-code-ask", details["rule"])
	assert.Contains(t, details["config"], "allow-test-gates", "how to allow it")
	assert.Zero(t, ran, "workspace code ran")

	require.NoError(t, k.Close())
	data, err := os.ReadFile(filepath.Join(ws, ".cmdbridge", "evidence", "receipts.jsonl"))
	require.NoError(t, err)
	found := false
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.Contains(line, `"tool":"test:gates"`) {
			found = true
			assert.Contains(t, line, `"effect":"runs_code"`)
		}
	}
	assert.True(t, found, "the refused call has a receipt")
}
