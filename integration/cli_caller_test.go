package integration_test

import (
	"encoding/json"
	"os/exec"
	"os/user"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/cli/clitest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestSignalSenderIsTheCaller: through the kernel, mem:signal records the call's
// authenticated subject as its sender on every lane, and a sender naming anyone else is
// refused — the body cannot claim to be someone else. (Run by hand, without a caller,
// the legacy command keeps the spec's default and any --sender.)
func TestSignalSenderIsTheCaller(t *testing.T) {
	ws, subject := callerWorkspace(t)
	for _, lane := range callerLanes {
		t.Run(lane, func(t *testing.T) {
			needsLane(t, lane)
			stdout, stderr, code := run(t, ws, "call", "mem:signal", "--lane", lane, "--input", `{"message":"hello"}`)
			require.Equal(t, 0, code, stdout+stderr)
			var data struct {
				Signal struct {
					Sender string `json:"sender"`
				} `json:"signal"`
			}
			raw, err := json.Marshal(clitest.DecodeOutput(t, stdout).Data)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(raw, &data))
			assert.Equal(t, subject, data.Signal.Sender, "the sender is the caller, not the default")

			stdout, _, code = run(t, ws, "call", "mem:signal", "--lane", lane, "--input", `{"message":"hello","sender":"someone-else"}`)
			assert.Equal(t, 1, code)
			out := clitest.DecodeOutput(t, stdout)
			require.NotNil(t, out.Error, stdout)
			assert.Equal(t, tool.CodeValidation, out.Error.Code)
			assert.Contains(t, out.Error.Message, "not the authenticated caller")

			stdout, _, code = run(t, ws, "call", "mem:signal", "--lane", lane, "--input", `{"message":"hello","sender":"`+subject+`"}`)
			assert.Equal(t, 0, code, "repeating one's own subject is fine: %s", stdout)
		})
	}
}

// TestCheckpointRecordsTheCaller: mem:checkpoint keeps the session its input names (a
// correlation id, not an identity) and records who made the checkpoint, the
// authenticated caller, in the node's metadata — on every lane.
func TestCheckpointRecordsTheCaller(t *testing.T) {
	ws, subject := callerWorkspace(t)
	for _, lane := range callerLanes {
		t.Run(lane, func(t *testing.T) {
			needsLane(t, lane)
			stdout, stderr, code := run(t, ws, "call", "mem:checkpoint", "--lane", lane, "--input",
				`{"note":"halfway","session":"00000000-0000-4000-8000-000000000001"}`)
			require.Equal(t, 0, code, stdout+stderr)
			var data struct {
				Node struct {
					SessionID string         `json:"session_id"`
					Metadata  map[string]any `json:"metadata"`
				} `json:"node"`
			}
			raw, err := json.Marshal(clitest.DecodeOutput(t, stdout).Data)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(raw, &data), string(raw))
			assert.Equal(t, "00000000-0000-4000-8000-000000000001", data.Node.SessionID)
			assert.Equal(t, subject, data.Node.Metadata["caller"], string(raw))
		})
	}
}

// callerLanes are the lanes a call can be forced onto from the command line.
var callerLanes = []string{"native", "adapter", "subprocess", "sandbox"}

// callerWorkspace is an initialised workspace and the subject `cmdbridge call` runs as.
func callerWorkspace(t *testing.T) (ws, subject string) {
	t.Helper()
	u, err := user.Current()
	require.NoError(t, err)
	ws = clitest.Workspace(t)
	_, stderr, code := run(t, ws, "call", "workspace:init", "--input", `{"name":"demo"}`)
	require.Equal(t, 0, code, stderr)
	return ws, "local:" + u.Username
}

// needsLane skips a sandbox-lane case on a host without bubblewrap.
func needsLane(t *testing.T, lane string) {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil && lane == "sandbox" {
		t.Skip("needs bubblewrap (bwrap) on the host")
	}
}
