// Scaffolded by `cmdbridge scaffold wu:unlock-lane`: the native tool's contract with its legacy command.

package wu_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	_ "github.com/cmdbridge/cmdbridge/commands/wu"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestUnlockLane: list shows every lock with its age and staleness and writes nothing; a
// stale lock is cleared; an active one needs force (LOCK_ACTIVE otherwise, the lock
// kept); no lock is NOT_FOUND.
func TestUnlockLane(t *testing.T) {
	ws := nt.Workspace(t)
	// nativetest's clock is 2026-03-02T18:37:08.384Z: the API lock is 30 minutes old, the
	// Ops one 5 hours (stale after the default 2 hours).
	nt.Write(t, ws, ".lumenflow/locks/core-api.lock", `{"lane":"Core: API","wuId":"WU-1","owner":"ada@example.com","timestamp":"2026-03-02T18:07:08.384Z"}`+"\n")
	nt.Write(t, ws, ".lumenflow/locks/ops.lock", `{"lane":"Ops","wuId":"WU-2","owner":"bob@example.com","timestamp":"2026-03-02T13:37:08.384Z"}`+"\n")

	d := nt.Data(t, nt.Call(t, ws, "wu:unlock-lane", `{"list":true}`))
	apiLock := map[string]any{"lane": "Core: API", "wu_id": "WU-1", "owner": "ada@example.com",
		"timestamp": "2026-03-02T18:07:08.384Z", "age_minutes": float64(30), "stale": false, "path": ".lumenflow/locks/core-api.lock"}
	assert.Equal(t, map[string]any{"locks": []any{apiLock, map[string]any{"lane": "Ops", "wu_id": "WU-2", "owner": "bob@example.com",
		"timestamp": "2026-03-02T13:37:08.384Z", "age_minutes": float64(300), "stale": true, "path": ".lumenflow/locks/ops.lock"}}}, d)

	d = nt.Data(t, nt.Call(t, ws, "wu:unlock-lane", `{"lane":"Ops","reason":"agent crashed"}`))
	assert.Equal(t, false, d["forced"])
	assert.Equal(t, ".lumenflow/locks/ops.lock", d["lock_path"])
	assert.NoFileExists(t, filepath.Join(ws, ".lumenflow", "locks", "ops.lock"))

	out := nt.Call(t, ws, "wu:unlock-lane", `{"lane":"Core: API","reason":"stuck"}`)
	assert.Equal(t, tool.CodeLockActive, nt.Code(t, out))
	assert.FileExists(t, filepath.Join(ws, ".lumenflow", "locks", "core-api.lock"))
	d = nt.Data(t, nt.Call(t, ws, "wu:unlock-lane", `{"lane":"Core: API","reason":"stuck","force":true}`))
	assert.Equal(t, map[string]any{"lane": "Core: API", "lock_path": ".lumenflow/locks/core-api.lock", "previous": apiLock, "forced": true}, d)
	assert.NoFileExists(t, filepath.Join(ws, ".lumenflow", "locks", "core-api.lock"))

	assert.Equal(t, tool.CodeNotFound, nt.Code(t, nt.Call(t, ws, "wu:unlock-lane", `{"lane":"Ops","reason":"again"}`)))
	assert.Equal(t, map[string]any{"locks": []any{}}, nt.Data(t, nt.Call(t, ws, "wu:unlock-lane", `{"list":true}`)))
}

// TestUnlockLaneFailures: the schema refuses what breaks the combination rules (at "/",
// a given "" counting as given) before the workspace is looked for; outside a workspace
// it is NO_WORKSPACE.
func TestUnlockLaneFailures(t *testing.T) {
	refusals(t, "wu:unlock-lane", []refusal{
		{"nothing", `{}`, "/"},
		{"list with lane", `{"list":true,"lane":"Ops"}`, "/"},
		{"list with an empty reason", `{"list":true,"reason":""}`, "/"},
		{"list with force", `{"list":true,"force":true}`, "/"},
		{"lane without reason", `{"lane":"Ops"}`, "/"},
		{"reason only", `{"reason":"x"}`, "/"},
		{"force only", `{"force":true}`, "/"},
	})
	nt.Failures(t, "wu:unlock-lane", nil, []nt.Failure{
		nt.Case("no workspace", `{"list":true}`, true, tool.CodeNoWorkspace),
		nt.Case("empty lane", `{"lane":"","reason":""}`, false, tool.CodeNotFound),
	})
}
