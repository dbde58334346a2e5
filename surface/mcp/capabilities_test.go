package mcp_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/mcp"
)

// TestCapabilitiesAdvertiseOnlyWhatIsSent: the server advertises tools, without
// listChanged (its tool list is fixed once built, so it never sends
// notifications/tools/list_changed), and no logging (it sends no log messages). Removing
// tools from a built server, as surface/http does per token, notifies nobody either.
func TestCapabilitiesAdvertiseOnlyWhatIsSent(t *testing.T) {
	k := newFixtureKernel(t, t.TempDir(), nil)
	t.Cleanup(func() { _ = k.Close() })
	ctx := context.Background()
	srv, err := mcp.NewServer(k, testCaller, mcp.Config{})
	require.NoError(t, err)
	st, ct := sdkmcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	require.NoError(t, err)
	changed := make(chan struct{}, 8)
	cs, err := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "caps", Version: "v0"}, &sdkmcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdkmcp.ToolListChangedRequest) { changed <- struct{}{} },
	}).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Wait() })

	caps, err := json.Marshal(cs.InitializeResult().Capabilities)
	require.NoError(t, err)
	assert.JSONEq(t, `{"tools":{}}`, string(caps), "tools, and nothing the server never sends")

	list, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.NotEmpty(t, list.Tools)
	srv.RemoveTools(list.Tools[0].Name)
	select {
	case <-changed:
		t.Fatal("a tools/list_changed notification was sent though listChanged is not advertised")
	case <-time.After(200 * time.Millisecond):
	}
}
