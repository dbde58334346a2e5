package parity_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/parity"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// newQuitter is a plain program whose action prints a line and ends its process with
// os.Exit(5), as real programs do: in-process, that would end the parity run itself.
func newQuitter() *cli.App {
	return &cli.App{
		Name: "quitter",
		Action: func(*cli.Context) error {
			fmt.Println("leaving")
			os.Exit(5)
			return nil
		},
	}
}

func quitterRegistry(t *testing.T, tier string) *legacy.Registry {
	t.Helper()
	cmds := legacy.NewRegistry()
	require.NoError(t, cmds.AddApp(newQuitter, legacy.TreeOptions{}))
	if tier != "" {
		require.NoError(t, cmds.SetTiers(legacy.Table{Commands: legacy.Tiers{"quitter": {Tier: tier}}}))
	}
	return cmds
}

// TestAdapterLaneFollowsTheTier: parity's adapter lane runs a command in-process only
// where serving would; a subprocess tier, or no tier without the host's opt-in, runs it on
// the subprocess lane and the report says why. The command calls os.Exit: were it run
// in-process, this test's process would end.
func TestAdapterLaneFollowsTheTier(t *testing.T) {
	bin, err := exec.LookPath("quitter") // this test binary, put on PATH by testscript.Main
	require.NoError(t, err)
	for _, tc := range []struct {
		name, tier, reason string
	}{
		{"subprocess tier", legacy.TierSubprocess, adapter.ReasonTier},
		{"nobody analysed it", "", adapter.ReasonUnanalysed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := parity.Run(context.Background(), "quitter", nil, parity.Config{
				Workspace: t.TempDir(), Commands: quitterRegistry(t, tc.tier), Binary: bin,
			})
			require.NoError(t, err)
			require.Equal(t, []string{parity.LaneSubprocess, parity.LaneAdapter}, rep.Lanes)
			assert.True(t, rep.OK(), rep.String())
			adapterLane := rep.Results[1]
			assert.Equal(t, tc.reason, adapterLane.Routed)
			assert.Equal(t, adapter.LaneSubprocess, adapterLane.Output.Metadata["lane"])
			assert.Equal(t, tc.reason, adapterLane.Output.Metadata["reason"])
			require.NotNil(t, adapterLane.Streams)
			assert.Equal(t, 5, adapterLane.Streams.ExitCode)
			assert.Equal(t, "leaving\n", string(adapterLane.Streams.Stdout))
			assert.Contains(t, rep.String(), fmt.Sprintf("the adapter lane ran it on the subprocess lane, as serving does: reason %q", tc.reason))
		})
	}
}

// TestAdapterLaneRunsInProcessWhereAllowed: an in-process tier, or the host's opt-in for
// an unanalysed command, keeps the adapter lane in this process.
func TestAdapterLaneRunsInProcessWhereAllowed(t *testing.T) {
	bin, err := exec.LookPath("echoer")
	require.NoError(t, err)
	for _, tc := range []struct {
		name      string
		tier      string
		inProcess bool
	}{
		{"in-process tier", legacy.TierInProcess, false},
		{"host opt-in", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmds := legacy.NewRegistry()
			require.NoError(t, cmds.AddApp(newEchoer, legacy.TreeOptions{}))
			if tc.tier != "" {
				require.NoError(t, cmds.SetTiers(legacy.Table{Commands: legacy.Tiers{"echoer": {Tier: tc.tier}}}))
			}
			var lanes []string
			rep, err := parity.Run(context.Background(), "echoer", json.RawMessage(`{"text":"hi"}`), parity.Config{
				Workspace: t.TempDir(), Commands: cmds, Binary: bin, RunUnanalysed: tc.inProcess,
				OnLane: func(lane string, inProcess bool) { lanes = append(lanes, fmt.Sprint(lane, "=", inProcess)) },
			})
			require.NoError(t, err)
			assert.True(t, rep.OK(), rep.String())
			assert.Empty(t, rep.Results[1].Routed)
			assert.Equal(t, adapter.LaneAdapter, rep.Results[1].Output.Metadata["lane"])
			assert.Equal(t, []string{"subprocess=false", "adapter=true"}, lanes, "OnLane says which lane runs in this process")
		})
	}
}
