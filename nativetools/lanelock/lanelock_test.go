package lanelock_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	lock "github.com/cmdbridge/cmdbridge/delivery/lanelock"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	_ "github.com/cmdbridge/cmdbridge/nativetools/lanelock"
	"github.com/cmdbridge/cmdbridge/tool"
)

func TestAcquireAndRelease(t *testing.T) {
	ws := nt.Workspace(t)
	d := nt.Data(t, nt.Call(t, ws, "lane-lock:acquire", `{"lane":"Core: API","wu_id":"WU-12","owner":"ada"}`))
	assert.Equal(t, map[string]any{"acquired": true, "already_held": false, "is_stale": false,
		"lock_path": ".lumenflow/locks/core-api.lock", "holder": nil}, d)
	raw, err := os.ReadFile(filepath.Join(ws, ".lumenflow", "locks", "core-api.lock"))
	require.NoError(t, err)
	assert.Equal(t, `{"lane":"Core: API","wuId":"WU-12","owner":"ada","timestamp":"2026-03-02T18:37:08.384Z"}`+"\n", string(raw))

	// The same lock is what the legacy commands read (one implementation).
	l, err := lock.Read(ws, "Core: API")
	require.NoError(t, err)
	assert.Equal(t, "ada", l.Owner)

	d = nt.Data(t, nt.Call(t, ws, "lane-lock:acquire", `{"lane":"Core: API","wu_id":"WU-12","owner":"ada"}`))
	assert.Equal(t, true, d["already_held"])

	d = nt.Data(t, nt.Call(t, ws, "lane-lock:acquire", `{"lane":"Core: API","wu_id":"WU-13","owner":"bob"}`))
	assert.Equal(t, false, d["acquired"])
	assert.Equal(t, map[string]any{"lane": "Core: API", "wuId": "WU-12", "owner": "ada", "timestamp": "2026-03-02T18:37:08.384Z"}, d["holder"])

	d = nt.Data(t, nt.Call(t, ws, "lane-lock:release", `{"lane":"Core: API","owner":"bob"}`))
	assert.Equal(t, map[string]any{"released": false, "lock_path": ".lumenflow/locks/core-api.lock", "reason": "owner_mismatch"}, d)
	d = nt.Data(t, nt.Call(t, ws, "lane-lock:release", `{"lane":"Core: API","owner":"ada"}`))
	assert.Equal(t, "released", d["reason"])
	d = nt.Data(t, nt.Call(t, ws, "lane-lock:release", `{"lane":"Core: API","owner":"ada"}`))
	assert.Equal(t, "not_found", d["reason"])
}

func TestStaleTakeover(t *testing.T) {
	ws := nt.Workspace(t)
	old, err := json.Marshal(map[string]string{"lane": "Core: API", "wuId": "WU-1", "owner": "old", "timestamp": "2026-03-02T10:00:00.000Z"})
	require.NoError(t, err)
	nt.Write(t, ws, ".lumenflow/locks/core-api.lock", string(old)+"\n")
	// 8h37m old: not stale with a 24h threshold, stale with the 2h default.
	d := nt.Data(t, nt.Call(t, ws, "lane-lock:acquire", `{"lane":"Core: API","wu_id":"WU-2","owner":"new","stale_after_ms":86400000}`))
	assert.Equal(t, false, d["acquired"])
	d = nt.Data(t, nt.Call(t, ws, "lane-lock:acquire", `{"lane":"Core: API","wu_id":"WU-2","owner":"new"}`))
	assert.Equal(t, true, d["acquired"])
	assert.Equal(t, true, d["is_stale"])
	_, err = os.Stat(filepath.Join(ws, ".lumenflow", "locks", "core-api.lock.takeover"))
	assert.True(t, os.IsNotExist(err), "the takeover marker is removed")
	d = nt.Data(t, nt.Call(t, ws, "lane-lock:release", `{"lane":"Core: API","owner":"someone","force":true}`))
	assert.Equal(t, true, d["released"])
}

func TestLockRefusals(t *testing.T) {
	ws := nt.Workspace(t)
	assert.Equal(t, tool.CodeInvalidInput, nt.Code(t, nt.Call(t, ws, "lane-lock:acquire", `{"lane":"","wu_id":"WU-1","owner":"a"}`)))
	assert.Equal(t, tool.CodeInvalidInput, nt.Code(t, nt.Call(t, ws, "lane-lock:release", `{"lane":"L","owner":""}`)))
	assert.Equal(t, tool.CodeNoWorkspace, nt.Code(t, nt.Call(t, t.TempDir(), "lane-lock:acquire", `{"lane":"L","wu_id":"WU-1","owner":"a"}`)))
}
