// Scaffolded by `cmdbridge scaffold orchestrate:initiative`: the native tool's contract with its legacy command.

package initiative_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/initiative"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// orchestrated is a workspace with INIT-3 (slug public-api): WU-1 in Core: API, WU-2 in
// Core: API waiting for WU-1, WU-3 in Content: Docs.
func orchestrated(t *testing.T) string {
	t.Helper()
	ws := nativetest.Workspace(t)
	nativetest.Write(t, ws, "docs/tasks/initiatives/INIT-3.yaml", "id: INIT-3\nslug: public-api\ntitle: Public API\nstatus: open\ncreated: 2026-02-27\nwus: [WU-1, WU-2, WU-3]\n")
	nativetest.Write(t, ws, "docs/tasks/wu/WU-1.yaml", "id: WU-1\ntitle: a\nlane: 'Core: API'\nstatus: ready\ncreated: 2026-02-01\n")
	nativetest.Write(t, ws, "docs/tasks/wu/WU-2.yaml", "id: WU-2\ntitle: b\nlane: 'Core: API'\nstatus: ready\ncreated: 2026-02-01\nblocked_by: [WU-1]\n")
	nativetest.Write(t, ws, "docs/tasks/wu/WU-3.yaml", "id: WU-3\ntitle: c\nlane: 'Content: Docs'\nstatus: ready\ncreated: 2026-02-01\n")
	return ws
}

// TestInitiativePlansAndSignalsWaveOne: the waves, one signal per wave-1 WU, none again
// while they wait unread; a dry run and progress write nothing.
func TestInitiativePlansAndSignalsWaveOne(t *testing.T) {
	ws := orchestrated(t)
	signals := filepath.Join(ws, ".lumenflow", "memory", "signals.jsonl")

	d := nativetest.Data(t, nativetest.Call(t, ws, "orchestrate:initiative", `{"initiative":"public-api","dry_run":true}`))
	assert.Equal(t, map[string]any{"initiative": "INIT-3", "waves": []any{[]any{"WU-1", "WU-3"}, []any{"WU-2"}},
		"skipped": []any{}, "deferred": []any{}, "signals_sent": []any{}}, d)
	assert.NoFileExists(t, signals)
	p := nativetest.Data(t, nativetest.Call(t, ws, "orchestrate:initiative", `{"initiative":"INIT-3","progress":true}`))
	assert.Equal(t, "INIT-3", p["id"])
	assert.NoFileExists(t, signals)

	d = nativetest.Data(t, nativetest.Call(t, ws, "orchestrate:initiative", `{"initiative":"INIT-3"}`))
	sent := d["signals_sent"].([]any)
	require.Len(t, sent, 2)
	got, err := os.ReadFile(signals)
	require.NoError(t, err)
	assert.Contains(t, string(got), `"message":"WU-1 is ready to start (INIT-3 wave 1)"`)
	assert.Contains(t, string(got), `"message":"WU-3 is ready to start (INIT-3 wave 1)"`)
	assert.Contains(t, string(got), `"sender":"orchestrator"`)

	d = nativetest.Data(t, nativetest.Call(t, ws, "orchestrate:initiative", `{"initiative":"INIT-3"}`))
	assert.Equal(t, []any{}, d["signals_sent"], "the same unread signals are waiting")
	again, err := os.ReadFile(signals)
	require.NoError(t, err)
	assert.Equal(t, string(got), string(again))
}

// TestInitiativeFailures: each refusal has the command's code, or the kernel's schema
// refuses the input (INVALID_INPUT), and nothing is written.
func TestInitiativeFailures(t *testing.T) {
	cases := []struct {
		name, input string
		code        string
	}{
		{"missing initiative", `{"dry_run":true}`, nativetest.InvalidAt("/initiative")},
		{"progress with dry_run", `{"initiative":"INIT-3","dry_run":true,"progress":true}`, nativetest.InvalidAt("/")},
		{"unknown initiative", `{"initiative":"nope"}`, tool.CodeNotFound},
		{"empty initiative", `{"initiative":"","progress":true}`, tool.CodeNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ws := orchestrated(t)
			assert.Equal(t, tc.code, nativetest.Outcome(t, nativetest.Call(t, ws, "orchestrate:initiative", tc.input)))
			assert.NoFileExists(t, filepath.Join(ws, ".lumenflow", "memory", "signals.jsonl"))
		})
	}
	t.Run("cycle", func(t *testing.T) {
		ws := orchestrated(t)
		nativetest.Write(t, ws, "docs/tasks/wu/WU-1.yaml", "id: WU-1\ntitle: a\nlane: 'Core: API'\nstatus: ready\ncreated: 2026-02-01\nblocked_by: [WU-2]\n")
		out := nativetest.Call(t, ws, "orchestrate:initiative", `{"initiative":"INIT-3"}`)
		assert.Equal(t, tool.CodeValidation, nativetest.Code(t, out))
		assert.Contains(t, out.Error.Message, "dependency cycle")
		assert.NoFileExists(t, filepath.Join(ws, ".lumenflow", "memory", "signals.jsonl"))
	})
}
