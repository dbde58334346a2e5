package adapter

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter/internal/hazard"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// A command nobody analysed runs on the subprocess lane when a binary is configured,
// unless the host opts in; with no binary it stays in-process (there is nothing else).
func TestUnanalysedCommandsRunAsSubprocessesByDefault(t *testing.T) {
	c := hazard.Lookup("echo")
	c.Tier = ""
	in := json.RawMessage(`{"args":["a"]}`)

	routed := Call(context.Background(), c, in, LaneAdapter, Config{Binary: binary})
	require.True(t, routed.Success, "%+v", routed.Error)
	assert.Equal(t, LaneSubprocess, routed.Metadata["lane"])
	assert.Equal(t, ReasonUnanalysed, routed.Metadata["reason"])
	assert.NotContains(t, routed.Metadata, "tier")

	optedIn := Call(context.Background(), c, in, LaneAdapter, Config{Binary: binary, RunUnanalysed: true})
	require.True(t, optedIn.Success, "%+v", optedIn.Error)
	assert.Equal(t, LaneAdapter, optedIn.Metadata["lane"])
	assert.NotContains(t, optedIn.Metadata, "reason")

	noBinary := Call(context.Background(), c, in, LaneAdapter, Config{})
	require.True(t, noBinary.Success, "%+v", noBinary.Error)
	assert.Equal(t, LaneAdapter, noBinary.Metadata["lane"])

	c.Tier = TierInProcess
	analysed := Call(context.Background(), c, in, LaneAdapter, Config{Binary: binary})
	assert.Equal(t, LaneAdapter, analysed.Metadata["lane"], "an in-process verdict keeps the adapter lane")
	assert.JSONEq(t, string(routed.Data.(json.RawMessage)), string(analysed.Data.(json.RawMessage)))
}

// fakeTier routes the named commands to the subprocess tier for one test.
func fakeTier(t *testing.T, names ...string) {
	t.Helper()
	sub := map[string]bool{}
	for _, n := range names {
		sub[n] = true
	}
	prev := tierOf
	tierOf = func(c legacy.Command) string {
		if sub[c.Name] {
			return TierSubprocess
		}
		return prev(c)
	}
	t.Cleanup(func() { tierOf = prev })
}

// A subprocess-tier command asked for the adapter lane runs as a real process: the
// logger init-logger bound to the process's stderr at package init is captured, which
// the in-process lane cannot do.
func TestCallRoutesSubprocessTierToSubprocess(t *testing.T) {
	c := hazard.Lookup("init-logger")

	inProcess := Call(context.Background(), c, json.RawMessage(`{}`), LaneAdapter, Config{Binary: binary})
	assert.Equal(t, LaneAdapter, inProcess.Metadata["lane"])
	assert.NotContains(t, inProcess.Metadata, "reason")
	assert.NotContains(t, inProcess.Metadata["stderr"], "init-bound logger", "in-process, the init-bound logger escapes the capture")

	fakeTier(t, "init-logger")
	routed := Call(context.Background(), c, json.RawMessage(`{}`), LaneAdapter, Config{Binary: binary})
	assert.Equal(t, LaneSubprocess, routed.Metadata["lane"])
	assert.Equal(t, ReasonTier, routed.Metadata["reason"])
	assert.Equal(t, TierSubprocess, routed.Metadata["tier"])
	assert.Equal(t, 0, routed.Metadata["exit_code"])
	assert.Contains(t, routed.Metadata["stderr"], "[init-logger] init-bound logger")

	asked := Call(context.Background(), c, json.RawMessage(`{}`), LaneSubprocess, Config{Binary: binary})
	assert.Equal(t, LaneSubprocess, asked.Metadata["lane"])
	assert.NotContains(t, asked.Metadata, "reason", "the subprocess lane was asked for: nothing was rerouted")
	assert.Equal(t, asked.Metadata["stderr"], routed.Metadata["stderr"])
}

func TestCallNeverRunsASubprocessTierInProcess(t *testing.T) {
	fakeTier(t, "echo")
	out := Call(context.Background(), hazard.Lookup("echo"), json.RawMessage(`{"args":["a"]}`), LaneAdapter, Config{})
	require.NotNil(t, out.Error, "without a binary the call fails rather than run in-process")
	assert.Equal(t, tool.CodeCommandFailed, out.Error.Code)
	assert.Contains(t, out.Error.Message, "no binary configured")
	assert.Equal(t, LaneSubprocess, out.Metadata["lane"])
	assert.Equal(t, ReasonTier, out.Metadata["reason"])
	assert.Equal(t, ExitUnavailable, out.Metadata["exit_code"])

	ok := Call(context.Background(), hazard.Lookup("echo"), json.RawMessage(`{"args":["a"]}`), LaneAdapter, Config{Binary: binary})
	require.True(t, ok.Success, "%+v", ok.Error)
	assert.JSONEq(t, `{"args":["a"]}`, string(ok.Data.(json.RawMessage)))
	assert.Equal(t, LaneSubprocess, ok.Metadata["lane"])
}
