package adapter

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter/internal/hazard"
	"github.com/cmdbridge/cmdbridge/bridgecheck"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestTiersAreCurrent fails when tiers.json differs from what `go generate ./adapter`
// would write (-update rewrites it).
func TestTiersAreCurrent(t *testing.T) {
	table, err := bridgecheck.Tiers("..", "./commands/...")
	require.NoError(t, err)
	got, err := table.JSON()
	require.NoError(t, err)
	if *update {
		require.NoError(t, os.WriteFile("tiers.json", got, 0o644))
	}
	onDisk, err := os.ReadFile("tiers.json")
	require.NoError(t, err, "tiers.json is missing: run go generate ./adapter")
	assert.Equal(t, string(onDisk), string(got), "tiers.json is stale: run go generate ./adapter")
	assert.Equal(t, string(onDisk), string(tiersJSON), "the embedded tiers.json is not the file on disk")
	assert.NotEmpty(t, table.Commands, "the corpus has commands")
}

func TestTierAndFindingsReadTheTable(t *testing.T) {
	var table struct {
		Commands map[string]tierEntry `json:"commands"`
	}
	require.NoError(t, json.Unmarshal(tiersJSON, &table))
	require.NotEmpty(t, table.Commands)
	for name, e := range table.Commands {
		assert.Equal(t, e.Tier, Tier(name), name)
		if e.Tier == TierSubprocess {
			assert.Equal(t, e.Findings, Findings(name), name)
			assert.NotEmpty(t, Findings(name), "a subprocess command says why: %s", name)
		} else {
			assert.Empty(t, Findings(name), name)
		}
	}
	assert.Equal(t, TierInProcess, Tier("no:such-command"), "unknown commands keep the adapter lane")
	assert.Nil(t, Findings("no:such-command"))
}

// fakeTier routes the named commands to the subprocess tier for one test.
func fakeTier(t *testing.T, names ...string) {
	t.Helper()
	sub := map[string]bool{}
	for _, n := range names {
		sub[n] = true
	}
	prev := tierOf
	tierOf = func(name string) string {
		if sub[name] {
			return TierSubprocess
		}
		return prev(name)
	}
	t.Cleanup(func() { tierOf = prev })
}

// A subprocess-tier command asked for the adapter lane runs as a real process: the
// logger init-logger bound to the process's stderr at package init is captured, which
// the in-process lane cannot do.
func TestCallRoutesSubprocessTierToSubprocess(t *testing.T) {
	c := hazard.Lookup("init-logger")

	inProcess := Call(context.Background(), c, json.RawMessage(`{}`), LaneAdapter, Options{Binary: binary})
	assert.Equal(t, LaneAdapter, inProcess.Metadata["lane"])
	assert.NotContains(t, inProcess.Metadata, "reason")
	assert.NotContains(t, inProcess.Metadata["stderr"], "init-bound logger", "in-process, the init-bound logger escapes the capture")

	fakeTier(t, "init-logger")
	routed := Call(context.Background(), c, json.RawMessage(`{}`), LaneAdapter, Options{Binary: binary})
	assert.Equal(t, LaneSubprocess, routed.Metadata["lane"])
	assert.Equal(t, ReasonTier, routed.Metadata["reason"])
	assert.Equal(t, TierSubprocess, routed.Metadata["tier"])
	assert.Equal(t, 0, routed.Metadata["exit_code"])
	assert.Contains(t, routed.Metadata["stderr"], "[init-logger] init-bound logger")

	asked := Call(context.Background(), c, json.RawMessage(`{}`), LaneSubprocess, Options{Binary: binary})
	assert.Equal(t, LaneSubprocess, asked.Metadata["lane"])
	assert.NotContains(t, asked.Metadata, "reason", "the subprocess lane was asked for: nothing was rerouted")
	assert.Equal(t, asked.Metadata["stderr"], routed.Metadata["stderr"])
}

func TestCallNeverRunsASubprocessTierInProcess(t *testing.T) {
	fakeTier(t, "echo")
	out := Call(context.Background(), hazard.Lookup("echo"), json.RawMessage(`{"args":["a"]}`), LaneAdapter, Options{})
	require.NotNil(t, out.Error, "without a binary the call fails rather than run in-process")
	assert.Equal(t, tool.CodeCommandFailed, out.Error.Code)
	assert.Contains(t, out.Error.Message, "no binary configured")
	assert.Equal(t, LaneSubprocess, out.Metadata["lane"])
	assert.Equal(t, ReasonTier, out.Metadata["reason"])
	assert.Equal(t, ExitUnavailable, out.Metadata["exit_code"])

	ok := Call(context.Background(), hazard.Lookup("echo"), json.RawMessage(`{"args":["a"]}`), LaneAdapter, Options{Binary: binary})
	require.True(t, ok.Success, "%+v", ok.Error)
	assert.JSONEq(t, `{"args":["a"]}`, string(ok.Data.(json.RawMessage)))
	assert.Equal(t, LaneSubprocess, ok.Metadata["lane"])
}
