// Scaffolded by `cmdbridge scaffold mem:inbox`: the native tool's contract with its legacy command.

package memory_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/memory"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestInboxListsAndMarks: unread signals filtered by lane; --mark appends receipts so the
// next call shows nothing unread, and all shows them as read.
func TestInboxListsAndMarks(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Data(t, nativetest.Call(t, root, "mem:signal", `{"message":"api","lane":"Core: API"}`))
	nativetest.Data(t, nativetest.Call(t, root, "mem:signal", `{"message":"docs","lane":"Docs"}`))

	data := nativetest.Data(t, nativetest.Call(t, root, "mem:inbox", `{"lane":"Docs","mark":true}`))
	require.Len(t, data["signals"], 1)
	sig := data["signals"].([]any)[0].(map[string]any)
	assert.Equal(t, "docs", sig["message"])
	assert.Equal(t, []any{sig["id"]}, data["marked"])
	assert.Contains(t, read(t, root, delivery.ReceiptsFile), `"signal_id":"`+sig["id"].(string)+`"`)

	data = nativetest.Data(t, nativetest.Call(t, root, "mem:inbox", `{}`))
	require.Len(t, data["signals"], 1, "only the unread api signal is left")
	assert.Equal(t, []any{}, data["marked"], "nothing is marked without mark")

	data = nativetest.Data(t, nativetest.Call(t, root, "mem:inbox", `{"all":true,"since":"1h"}`))
	assert.Len(t, data["signals"], 2)
}

// TestInboxFailures: the schema refuses a malformed wu before the handler runs; a SINCE
// form it does not check ("" and a date that is no real day included) is USAGE before the
// workspace is opened.
func TestInboxFailures(t *testing.T) {
	assertFailures(t, "mem:inbox", `{}`, []failure{
		{"bad since", `{"since":"yesterday"}`, tool.CodeUsage, ""},
		{"empty since", `{"since":""}`, tool.CodeUsage, ""},
		{"no real day", `{"since":"2026-02-30"}`, tool.CodeUsage, ""},
		{"bad wu", `{"wu":"WU-x"}`, tool.CodeInvalidInput, "/wu"},
	})
}
