// Scaffolded by `cmdbridge scaffold mem:create`: the native tool's contract with its legacy command.

package memory_test

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	_ "github.com/cmdbridge/cmdbridge/commands/memory"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestCreateAppendsANode: a discovery by default (id of corpus §2.5, priority in metadata);
// an alias is a discovery tagged with it first, tags de-duplicated, discovered_from
// appending the relationship; without wu the session's WU and session are taken.
func TestCreateAppendsANode(t *testing.T) {
	root := nativetest.Workspace(t)
	node := nativetest.Data(t, nativetest.Call(t, root, "mem:create",
		`{"message":"Health handler must not hit the DB","wu":"WU-1","priority":"P1"}`))["node"].(map[string]any)
	sum := sha256.Sum256([]byte("Health handler must not hit the DB-2026-03-02T18:37:08.384Z"))
	assert.Equal(t, "mem-"+hex.EncodeToString(sum[:])[:4], node["id"])
	assert.Equal(t, "discovery", node["type"])
	assert.Equal(t, "wu", node["lifecycle"])
	assert.Equal(t, map[string]any{"priority": "P1"}, node["metadata"])

	data := nativetest.Data(t, nativetest.Call(t, root, "mem:create",
		`{"message":"Cache the build info","type":"bug","tags":["perf","bug","perf"],"discovered_from":"`+node["id"].(string)+`"}`))
	alias := data["node"].(map[string]any)
	assert.Equal(t, "discovery", alias["type"])
	assert.Equal(t, []any{"bug", "perf"}, alias["tags"])
	assert.Equal(t, map[string]any{"from_id": alias["id"], "to_id": node["id"], "type": "discovered_from",
		"created_at": "2026-03-02T18:37:08.384Z"}, data["relationship"])
	assert.Equal(t, `{"from_id":"`+alias["id"].(string)+`","to_id":"`+node["id"].(string)+`","type":"discovered_from","created_at":"2026-03-02T18:37:08.384Z"}`+"\n",
		read(t, root, ".lumenflow/memory/relationships.jsonl"))

	note := nativetest.Data(t, nativetest.Call(t, root, "mem:create", `{"message":"Remember","type":"note"}`))
	assert.Equal(t, "session", note["node"].(map[string]any)["lifecycle"])
	assert.Nil(t, note["relationship"])

	nativetest.Write(t, root, ".lumenflow/sessions/current.json", session)
	fromSession := nativetest.Data(t, nativetest.Call(t, root, "mem:create", `{"message":"From the session"}`))["node"].(map[string]any)
	assert.Equal(t, "WU-7", fromSession["wu_id"])
	assert.Equal(t, "0b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", fromSession["session_id"])

	again := nativetest.Data(t, nativetest.Call(t, root, "mem:create",
		`{"message":"Health handler must not hit the DB","wu":"WU-1"}`))["node"].(map[string]any)
	assert.NotEqual(t, node["id"], again["id"], "an id in use is redrawn (basis#1)")
	assert.Len(t, strings.Split(strings.TrimSuffix(read(t, root, ".lumenflow/memory/memory.jsonl"), "\n"), "\n"), 5)
}

// TestCreateFailures: the schema refuses a missing message and a malformed wu, parent or
// priority ("" included) before the handler runs; then VALIDATION (blank message, unknown
// or empty type) and NOT_FOUND (unknown parent); none writes anything.
func TestCreateFailures(t *testing.T) {
	assertFailures(t, "mem:create", `{"message":"x"}`, []failure{
		{"missing message", `{}`, tool.CodeInvalidInput, "/message"},
		{"malformed wu", `{"message":"x","wu":"wu-1"}`, tool.CodeInvalidInput, "/wu"},
		{"empty wu", `{"message":"x","wu":""}`, tool.CodeInvalidInput, "/wu"},
		{"malformed parent", `{"message":"x","discovered_from":"mem-XYZ"}`, tool.CodeInvalidInput, "/discovered_from"},
		{"empty parent", `{"message":"x","discovered_from":""}`, tool.CodeInvalidInput, "/discovered_from"},
		{"bad priority", `{"message":"x","priority":"P9"}`, tool.CodeInvalidInput, "/priority"},
		{"refused before the type check", `{"message":"x","priority":"P9","type":"idea2"}`, tool.CodeInvalidInput, "/priority"},
		{"empty message", `{"message":""}`, tool.CodeInvalidInput, "/message"},
		{"blank message", `{"message":"  "}`, tool.CodeInvalidInput, "/message"},
		{"bad type", `{"message":"x","type":"idea2"}`, tool.CodeValidation, ""},
		{"empty type", `{"message":"x","type":""}`, tool.CodeValidation, ""},
		{"unknown parent", `{"message":"x","discovered_from":"mem-ffff"}`, tool.CodeNotFound, ""},
	})
}
