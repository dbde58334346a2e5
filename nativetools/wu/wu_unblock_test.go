// Scaffolded by `cmdbridge scaffold wu:unblock`: the native tool's contract with its legacy command.

package wu_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/wu"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestUnblockFailures: the schema refuses a missing or malformed id first; then the
// command's codes.
func TestUnblockFailures(t *testing.T) {
	refusals(t, "wu:unblock", []refusal{
		{"missing id", `{}`, "/id"},
		{"malformed id", `{"id":"WU-x"}`, "/id"},
	})
	nt.Failures(t, "wu:unblock", func(t *testing.T, ws string) { create(t, ws) }, []nt.Failure{
		nt.Case("no workspace", `{"id":"WU-1"}`, true, tool.CodeNoWorkspace),
		nt.Case("unknown WU", `{"id":"WU-9"}`, false, tool.CodeNotFound),
		nt.Case("not blocked", `{"id":"WU-1"}`, false, tool.CodeInvalidTransition),
	})
}

// TestUnblockTakesTheLockUnderPolicyActive: under lock_policy active the lane lock is
// re-acquired, and a lane held by someone else is LANE_BUSY before anything is written.
func TestUnblockTakesTheLockUnderPolicyActive(t *testing.T) {
	ws := nt.Workspace(t)
	nt.Write(t, ws, "workspace.yaml", "id: acme\nname: Acme\nsoftware_delivery:\n  lanes:\n    definitions:\n      - name: 'Core: API'\n        lock_policy: active\n")
	nt.Git(t, ws, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-am", "policy active")
	id := create(t, ws)
	claim(t, ws, id)
	d := nt.Data(t, nt.Call(t, ws, "wu:block", `{"id":"`+id+`","reason":"waiting"}`))
	assert.Equal(t, true, d["lock_released"])

	nt.Write(t, ws, ".lumenflow/locks/core-api.lock", `{"lane":"Core: API","wuId":"WU-8","owner":"bob","timestamp":"2026-03-02T18:00:00.000Z"}`+"\n")
	head := nt.Git(t, ws, "rev-parse", "HEAD")
	out := nt.Call(t, ws, "wu:unblock", `{"id":"`+id+`"}`)
	assert.Equal(t, tool.CodeLaneBusy, nt.Code(t, out))
	assert.Equal(t, head, nt.Git(t, ws, "rev-parse", "HEAD"), "nothing committed")
	assert.Contains(t, readFile(t, ws, "docs/tasks/wu/WU-1.yaml"), "status: blocked")

	require.NoError(t, os.Remove(filepath.Join(ws, ".lumenflow", "locks", "core-api.lock")))
	d = nt.Data(t, nt.Call(t, ws, "wu:unblock", `{"id":"`+id+`"}`))
	assert.Equal(t, true, d["lock_acquired"])
}
