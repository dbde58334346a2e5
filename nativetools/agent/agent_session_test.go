// Scaffolded by `cmdbridge scaffold agent:session`: the native tool's contract with its legacy command.

package agent_test

import (
	"context"
	"encoding/json"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/agent"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/agent"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestSessionSchemaEqualsAdapter: the native input schema is the adapter's, byte for byte.
func TestSessionSchemaEqualsAdapter(t *testing.T) {
	c, ok := commands.Default.Lookup("agent:session")
	require.True(t, ok, "legacy command not registered")
	want, err := adapter.Schema(c)
	require.NoError(t, err)
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	nt, ok := nativetools.Default.Lookup("agent:session")
	require.True(t, ok, "native tool not registered")
	gotJSON, err := json.Marshal(nt.Spec.InputSchema)
	require.NoError(t, err)
	assert.Equal(t, string(wantJSON), string(gotJSON))
}

// TestSessionDecodesFullInput: every property decodes into SessionInput and survives the round trip.
func TestSessionDecodesFullInput(t *testing.T) {
	nt, ok := nativetools.Default.Lookup("agent:session")
	require.True(t, ok, "native tool not registered")
	raw := []byte(`{"agent_type":"x-agent_type","tier":7,"wu":"x-wu"}`)
	v, err := nt.Decode(raw)
	require.NoError(t, err)
	in, ok := v.(agent.SessionInput)
	require.True(t, ok, "decoded %T", v)
	back, err := json.Marshal(in)
	require.NoError(t, err)
	assert.JSONEq(t, string(raw), string(back))
}

// TestSessionDefaultsFromTheEnvironment: without LUMENFLOW_AGENT_CAPABILITIES,
// LUMENFLOW_AGENT_VERSION and HOSTNAME in the call's environment the session records the
// two default capabilities and "unknown"; with them, what they say (the list trimmed).
func TestSessionDefaultsFromTheEnvironment(t *testing.T) {
	for _, tc := range []struct {
		env                  map[string]string
		caps                 []string
		version, host, agent string
	}{
		{map[string]string{}, []string{"session_lifecycle", "incident_logging"}, "unknown", "unknown", "claude-code"},
		{map[string]string{"LUMENFLOW_AGENT_CAPABILITIES": " review, ,ship ", "LUMENFLOW_AGENT_VERSION": "2.1", "HOSTNAME": "box"},
			[]string{"review", "ship"}, "2.1", "box", "claude-code"},
	} {
		ws := sessionWorkspace(t)
		nt, ok := nativetools.Default.Lookup("agent:session")
		require.True(t, ok)
		env := maps.Clone(nativetest.Env)
		maps.Copy(env, tc.env)
		out := nt.Call(context.Background(), &tool.Env{Dir: ws, LookupEnv: tool.EnvFromMap(env), Log: io.Discard,
			Stdin: strings.NewReader("")}, []byte(`{"wu":"WU-1","tier":1}`))
		require.True(t, out.Success, "%+v", out.Error)
		b, err := json.Marshal(out.Data)
		require.NoError(t, err)
		var got struct {
			Session struct {
				Capabilities []string `json:"capabilities"`
				AgentVersion string   `json:"agent_version"`
				HostID       string   `json:"host_id"`
				AgentType    string   `json:"agent_type"`
			} `json:"session"`
		}
		require.NoError(t, json.Unmarshal(b, &got))
		assert.Equal(t, tc.caps, got.Session.Capabilities)
		assert.Equal(t, tc.version, got.Session.AgentVersion)
		assert.Equal(t, tc.host, got.Session.HostID)
		assert.Equal(t, tc.agent, got.Session.AgentType)
	}
}

// sessionWorkspace is a workspace with no WU specs and no session.
func sessionWorkspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "workspace.yaml"), []byte("id: acme\n"), 0o644))
	return dir
}
