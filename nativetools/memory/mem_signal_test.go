// Scaffolded by `cmdbridge scaffold mem:signal`: the native tool's contract with its legacy command.

package memory_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	_ "github.com/cmdbridge/cmdbridge/commands/memory"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestSignalAppends: one signal appended with its message trimmed and the command's
// defaults; without wu the session's WU is used.
func TestSignalAppends(t *testing.T) {
	root := nativetest.Workspace(t)
	data := nativetest.Data(t, nativetest.Call(t, root, "mem:signal", `{"message":"  API frozen  ","wu":"WU-1","lane":"Core: API"}`))
	sig := data["signal"].(map[string]any)
	assert.Equal(t, "API frozen", sig["message"])
	assert.Equal(t, delivery.DefaultSignalType, sig["type"])
	assert.Equal(t, delivery.DefaultSignalSender, sig["sender"])
	assert.Equal(t, "WU-1", sig["wu_id"])
	assert.Contains(t, read(t, root, delivery.SignalsFile), `"id":"`+sig["id"].(string)+`"`)

	nativetest.Write(t, root, delivery.SessionFile, session)
	data = nativetest.Data(t, nativetest.Call(t, root, "mem:signal", `{"message":"handoff","type":"handoff","sender":"ada","target_agent":"reviewer"}`))
	sig = data["signal"].(map[string]any)
	assert.Equal(t, "WU-7", sig["wu_id"])
	assert.Equal(t, "handoff", sig["type"])
	assert.Equal(t, "reviewer", sig["target_agent"])
}

// TestSignalFailures: the schema refuses a missing message and a malformed wu ("" included)
// before the handler runs, a malformed value before a missing one, and a blank message
// (its pattern says non-blank).
func TestSignalFailures(t *testing.T) {
	assertFailures(t, "mem:signal", `{"message":"x"}`, []failure{
		{"missing message", `{}`, tool.CodeInvalidInput, "/message"},
		{"blank message", `{"message":"   "}`, tool.CodeInvalidInput, "/message"},
		{"bad wu", `{"message":"x","wu":"12"}`, tool.CodeInvalidInput, "/wu"},
		{"bad wu before missing message", `{"wu":""}`, tool.CodeInvalidInput, "/wu"},
	})
}
