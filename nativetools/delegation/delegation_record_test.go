package delegation_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/nativetools/delegation"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

func TestRecordAppendsRegistryAndEvent(t *testing.T) {
	ws := nt.Workspace(t)
	nt.WU(t, ws, "WU-1", "Core: API")
	nt.WU(t, ws, "WU-2", "Content: Docs")
	d := nt.Data(t, nt.Call(t, ws, "delegation:record", `{"parent_wu_id":"WU-1","target_wu_id":"WU-2"}`))
	id := d["delegation_id"].(string)
	assert.Regexp(t, `^dlg-[0-9a-f]{4}$`, id)
	assert.Equal(t, ".lumenflow/state/delegation-registry.jsonl", d["registry_path"])
	rec := d["record"].(map[string]any)
	assert.Equal(t, "Content: Docs", rec["lane"], "lane defaults to the target WU's")
	assert.Equal(t, "delegation", rec["intent"])
	assert.Equal(t, "pending", rec["status"])

	reg, err := os.ReadFile(filepath.Join(ws, ".lumenflow", "state", "delegation-registry.jsonl"))
	require.NoError(t, err)
	assert.Equal(t, `{"id":"`+id+`","parentWuId":"WU-1","targetWuId":"WU-2","lane":"Content: Docs","intent":"delegation","delegatedAt":"2026-03-02T18:37:08.384Z","status":"pending","completedAt":null}`+"\n", string(reg))
	ev, err := os.ReadFile(filepath.Join(ws, ".lumenflow", "state", "wu-events.jsonl"))
	require.NoError(t, err)
	assert.Equal(t, `{"type":"delegation","wuId":"WU-2","timestamp":"2026-03-02T18:37:08.384Z","parentWuId":"WU-1","delegationId":"`+id+`"}`+"\n", string(ev))

	// Seeded ids are reproducible per invocation, and a collision in the store redraws.
	d2 := nt.Data(t, nt.Call(t, ws, "delegation:record", `{"parent_wu_id":"WU-1","target_wu_id":"WU-2","lane":"X","intent":"legacy-spawn"}`))
	assert.NotEqual(t, id, d2["delegation_id"])
	reg, err = os.ReadFile(filepath.Join(ws, ".lumenflow", "state", "delegation-registry.jsonl"))
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(reg), "\n"))
}

func TestRecordRefusals(t *testing.T) {
	ws := nt.Workspace(t)
	nt.WU(t, ws, "WU-1", "Core: API")
	cases := map[string]string{
		`{"parent_wu_id":"WU-1","target_wu_id":"WU-9"}`:                 tool.CodeNotFound,
		`{"parent_wu_id":"WU-9","target_wu_id":"WU-1"}`:                 tool.CodeNotFound,
		`{"parent_wu_id":"wu1","target_wu_id":"WU-1"}`:                  tool.CodeInvalidInput,
		`{"parent_wu_id":"WU-1","target_wu_id":"WU-1","intent":"fork"}`: tool.CodeValidation,
	}
	for input, code := range cases {
		assert.Equal(t, code, nt.Code(t, nt.Call(t, ws, "delegation:record", input)), input)
	}
	_, err := os.Stat(filepath.Join(ws, ".lumenflow", "state", "delegation-registry.jsonl"))
	assert.True(t, os.IsNotExist(err), "refused calls write nothing")
}
