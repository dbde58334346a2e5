package kernel_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/sandbox"
	"github.com/cmdbridge/cmdbridge/tool"
)

// fakeSandbox records the requests the kernel hands the sandbox lane.
type fakeSandbox struct {
	mu   sync.Mutex
	host sandbox.Host
	reqs []sandbox.Request
}

func (f *fakeSandbox) Host() sandbox.Host { return f.host }

func (f *fakeSandbox) Run(ctx context.Context, req sandbox.Request) (tool.Output, sandbox.Info) {
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	info := sandbox.Info{Host: f.host, ProfileHash: "hash-1", Degraded: []string{"no-proc"}}
	if !f.host.Usable() {
		return tool.Fail(tool.CodeSandboxUnavailable, "host %s", f.host), sandbox.Info{Host: f.host}
	}
	return tool.OK("sandboxed " + req.HandlerEntry.Lane), info
}

func TestSandboxLane(t *testing.T) {
	t.Run("a sandboxed tool runs there with the caller's scopes and the receipt id", func(t *testing.T) {
		sb := &fakeSandbox{host: sandbox.HostNoProc}
		k, ws := newKernel(t, &probe{}, func(c *assemble.Config) {
			c.Sandbox = sb
			c.Sandboxed = []string{"test:*", "WuEdit"}
		})
		res := k.Call(context.Background(), req("test:echo", `{"text":"hi"}`))
		require.True(t, res.Output.Success, "%+v", res.Output.Error)
		assert.Equal(t, "sandboxed native", res.Output.Data)
		assert.Equal(t, kernel.LaneSandbox, res.Receipt.Lane)
		require.NotNil(t, res.Receipt.Sandbox)
		assert.Equal(t, "no-proc", res.Receipt.Sandbox.Host)
		assert.Equal(t, "hash-1", res.Receipt.Sandbox.ProfileHash)
		assert.Equal(t, []string{"no-proc"}, res.Receipt.Sandbox.Degraded)

		res = k.Call(context.Background(), req("wu:edit", `{"id":"WU-1"}`))
		require.True(t, res.Output.Success, "%+v", res.Output.Error)
		assert.Equal(t, "sandboxed adapter", res.Output.Data, "a command-backed tool runs the in-process adapter inside")

		require.Len(t, sb.reqs, 2)
		r := sb.reqs[0]
		assert.Equal(t, "test:echo", r.ToolName)
		assert.Equal(t, sandbox.Entry{Lane: sandbox.LaneNative, Native: "test:echo"}, r.HandlerEntry)
		real, err := filepath.EvalSymlinks(ws)
		require.NoError(t, err)
		assert.Equal(t, []string{real}, r.ScopeEnforced.Write)
		assert.Equal(t, real, filepath.Clean(r.Workspace))
		onDisk := receipts(t, ws)
		require.Len(t, onDisk, 2)
		assert.Equal(t, onDisk[0].ID, r.ReceiptID, "the runner gets the kernel's receipt id")
		require.NotNil(t, onDisk[0].Sandbox)
		assert.Equal(t, "hash-1", onDisk[0].Sandbox.ProfileHash)
	})
	t.Run("a sandboxed tool cannot be forced onto another lane", func(t *testing.T) {
		sb := &fakeSandbox{host: sandbox.HostFull}
		k, _ := newKernel(t, &probe{}, func(c *assemble.Config) { c.Sandbox = sb; c.Sandboxed = []string{"test:echo"} })
		r := req("test:echo", `{}`)
		r.Lane = kernel.LaneNative
		res := k.Call(context.Background(), r)
		require.False(t, res.Output.Success)
		assert.Equal(t, tool.CodeInvalidInput, res.Output.Error.Code)
		assert.Contains(t, res.Output.Error.Message, "must run in the sandbox")
		assert.Empty(t, sb.reqs)
	})
	t.Run("no sandbox configured refuses, never runs unconfined", func(t *testing.T) {
		p := &probe{}
		k, _ := newKernel(t, p, func(c *assemble.Config) { c.Sandboxed = []string{"test:write"} })
		res := k.Call(context.Background(), req("test:write", `{"path":"a.txt"}`))
		require.False(t, res.Output.Success)
		assert.Equal(t, tool.CodeSandboxUnavailable, res.Output.Error.Code)
		assert.Empty(t, p.order, "the handler never ran")
		require.NotNil(t, res.Receipt.Sandbox)
		assert.Equal(t, "absent", res.Receipt.Sandbox.Host)
	})
	t.Run("an unusable host is refused and the class recorded", func(t *testing.T) {
		sb := &fakeSandbox{host: sandbox.HostNoUserns}
		k, _ := newKernel(t, &probe{}, func(c *assemble.Config) { c.Sandbox = sb })
		r := req("test:echo", `{}`)
		r.Lane = kernel.LaneSandbox
		res := k.Call(context.Background(), r)
		require.False(t, res.Output.Success)
		assert.Equal(t, tool.CodeSandboxUnavailable, res.Output.Error.Code)
		require.NotNil(t, res.Receipt.Sandbox)
		assert.Equal(t, "no-userns", res.Receipt.Sandbox.Host)
	})
}

// When the adapter reroutes a subprocess-tier command, the receipt names the lane that ran.
func TestReceiptNamesTheReroutedLane(t *testing.T) {
	k, _ := newKernel(t, &probe{}, func(c *assemble.Config) { c.Lanes = []kernel.Lane{reroutingLane{}} })
	res := k.Call(context.Background(), req("wu:edit", `{"id":"WU-1"}`))
	require.True(t, res.Output.Success, "%+v", res.Output.Error)
	assert.Equal(t, kernel.LaneSubprocess, res.Receipt.Lane)
}

// reroutingLane answers as the adapter does when it moves a command to a subprocess.
type reroutingLane struct{}

func (reroutingLane) Name() string { return kernel.LaneAdapter }

func (reroutingLane) Run(ctx context.Context, call kernel.LaneCall) tool.Output {
	return tool.OK(nil).WithMeta("lane", kernel.LaneSubprocess).WithMeta("reason", "tier")
}
