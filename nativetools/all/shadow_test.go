package all_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/statedir"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/parity/status"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestShadowToPromotion drives the promotion path on the corpus: wu:edit and config:set
// are routed shadow in the workspace's config.yaml (committed, as a team keeps it) with a
// rule of 3 matching runs; a kernel serves 3 calls of each from the adapter while the
// native lane runs on a copy; every receipt says the two agreed, and the status report
// built from the evidence log recommends routing both native (and wu:unblock, shadowed
// once, not yet).
func TestShadowToPromotion(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "acme")
	require.NoError(t, requiredTemplate(t).Write(ws))
	require.NoError(t, os.MkdirAll(filepath.Join(ws, ".cmdbridge"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, kernel.ConfigFile), []byte(
		"routes: {wu:edit: shadow, config:set: shadow, wu:unblock: shadow}\nshadow_promotion: {matches: 3, max_mismatches: 0}\n"), 0o644))
	nativetest.Git(t, ws, "add", kernel.ConfigFile)
	nativetest.Git(t, ws, "-c", "user.name=m", "-c", "user.email=m@example.com", "commit", "-q", "-m", "cmdbridge: shadow the writers")
	// shadow_promotion is cmdbridge status's key, not the kernel's: read as its section.
	var promotion *status.Promotion
	fc, err := kernel.LoadFileConfig(filepath.Join(ws, kernel.ConfigFile), kernel.FileSection{Key: "shadow_promotion", Into: &promotion})
	require.NoError(t, err)
	require.NotNil(t, promotion)
	cfg := assemble.Config{
		Config: kernel.Config{
			Workspace: ws,
			LookupEnv: tool.EnvFromMap(benchEnv),
			Evidence:  kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
		},
		Commands: commands.Default,
		Native:   nativetools.Default,
		Runtime:  delivery.ToolRuntime,
		Legacy:   adapter.Config{Env: benchEnv},
	}
	require.NoError(t, fc.Apply(&cfg.Config))
	// The maintainer allows the shadowed writers ahead of the default policy (which asks
	// a person before a destructive call).
	for _, name := range []string{"wu:edit", "config:set", "wu:unblock"} {
		cfg.Policy = append([]kernel.Rule{{Name: "allow-" + name, Tool: name, Decision: kernel.Allow, Priority: 1000}}, cfg.Policy...)
	}
	k, err := assemble.Kernel(cfg)
	require.NoError(t, err)
	call := func(name, input string) {
		t.Helper()
		res := k.Call(context.Background(), kernel.Request{Tool: name, Input: json.RawMessage(input), Caller: kernel.WorkspaceCaller("tester")})
		require.True(t, res.Output.Success, "%s: %+v", name, res.Output.Error)
		require.NotNil(t, res.Receipt.Shadow, "%s was shadowed", name)
		require.True(t, res.Receipt.Shadow.Match, "%s: %v %s", name, res.Receipt.Shadow.Diffs, res.Receipt.Shadow.Error)
	}
	for i := 0; i < 3; i++ {
		call("wu:edit", fmt.Sprintf(`{"id":"WU-12","notes":"round %d"}`, i))
		call("config:set", fmt.Sprintf(`{"key":"control_plane.round","value":"%d"}`, i))
	}
	call("wu:unblock", `{"id":"WU-52","reason":"unblocked"}`)
	require.NoError(t, k.Close())

	st, err := statedir.Find(ws, os.LookupEnv)
	require.NoError(t, err)
	tallies, verified, err := evidence.ShadowSummary(st.Path(statedir.Evidence))
	require.NoError(t, err)
	require.True(t, verified)
	var tools []status.Tool
	for _, name := range []string{"wu:edit", "config:set", "wu:unblock"} {
		tools = append(tools, status.Tool{Name: name, Domain: strings.SplitN(name, ":", 2)[0], Route: "shadow", Command: true, Native: true})
	}
	rep, err := status.Build(status.Config{Dir: t.TempDir(), Tools: tools, Shadows: &status.Shadows{Workspace: ws, Tallies: tallies, Verified: verified,
		Rule: *promotion}})
	require.NoError(t, err)
	assert.Equal(t, []string{"config:set", "wu:edit"}, rep.Shadow.Promote)
	for _, tl := range rep.Tools {
		require.NotNil(t, tl.Shadow, tl.Name)
		if tl.Name == "wu:unblock" {
			assert.Equal(t, status.VerdictKeep, tl.Shadow.Verdict)
			continue
		}
		assert.Equal(t, 3, tl.Shadow.Matches, tl.Name)
	}
}
