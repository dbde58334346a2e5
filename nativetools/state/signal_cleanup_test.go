// Scaffolded by `cmdbridge scaffold signal:cleanup`: the native tool's contract with its legacy command.

package state_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/state"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// cleanupSignals are three signals at DELIVERY_NOW (2026-03-02T18:37:08Z): read and 9
// days old, unread and 40 days old, and unread and old but linked to an in-progress WU.
const cleanupSignals = `{"id":"sig-00000001","message":"a","created_at":"2026-02-21T10:00:00.000Z","read":true,"type":"coordination","sender":"system","origin":"local","remote_id":"sig-00000001"}
{"id":"sig-00000002","message":"b","created_at":"2026-01-21T10:00:00.000Z","read":false,"type":"coordination","sender":"system","origin":"local","remote_id":"sig-00000002"}
{"id":"sig-00000003","message":"c","created_at":"2026-01-01T10:00:00.000Z","read":false,"type":"coordination","sender":"system","origin":"local","remote_id":"sig-00000003","wu_id":"WU-1"}
`

// TestSignalCleanupPrunes: the config TTLs (7d read, 30d unread) remove the first two
// signals, the protected one stays; a dry run writes nothing; flags override the TTLs;
// max_entries 0 is a maximum, not "absent".
func TestSignalCleanupPrunes(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, "docs/tasks/wu/WU-1.yaml", "id: WU-1\ntitle: Active\nlane: 'Core: API'\n"+
		"status: in_progress\ncreated: 2026-02-01\ndescription: ''\nacceptance: []\n")
	store := filepath.Join(root, ".lumenflow", "memory", "signals.jsonl")
	nativetest.Write(t, root, ".lumenflow/memory/signals.jsonl", cleanupSignals)

	data := nativetest.Data(t, nativetest.Call(t, root, "signal:cleanup", `{"dry_run":true,"ttl":"30d","unread_ttl":"60d"}`))
	assert.Equal(t, []any{}, data["removed"])
	data = nativetest.Data(t, nativetest.Call(t, root, "signal:cleanup", `{"dry_run":true,"max_entries":0}`))
	assert.Equal(t, []any{"sig-00000001", "sig-00000002"}, data["removed"])
	assert.Equal(t, 1.0, data["kept"], "a protected signal survives any maximum")
	assert.Equal(t, true, data["dry_run"])
	b, err := os.ReadFile(store)
	require.NoError(t, err)
	assert.Equal(t, cleanupSignals, string(b), "a dry run writes nothing")

	data = nativetest.Data(t, nativetest.Call(t, root, "signal:cleanup", `{}`))
	assert.Equal(t, []any{"sig-00000001", "sig-00000002"}, data["removed"])
	b, err = os.ReadFile(store)
	require.NoError(t, err)
	assert.NotContains(t, string(b), "sig-00000001")
	assert.Contains(t, string(b), "sig-00000003")
}

// TestSignalCleanupFailures: the schema refuses a duration that is not one ("" included)
// before the handler runs (INVALID_INPUT at the property); one whose number is too large
// to count is USAGE before the workspace is looked for; outside a workspace NO_WORKSPACE.
func TestSignalCleanupFailures(t *testing.T) {
	for name, tc := range map[string]struct{ input, code, path string }{
		"bad ttl":        {`{"ttl":"soon"}`, tool.CodeInvalidInput, "/ttl"},
		"empty unread":   {`{"unread_ttl":""}`, tool.CodeInvalidInput, "/unread_ttl"},
		"huge ttl":       {`{"ttl":"99999999999999999999d"}`, tool.CodeUsage, ""},
		"no workspace":   {`{"ttl":"7d"}`, tool.CodeNoWorkspace, ""},
		"dry run, no ws": {`{"dry_run":true}`, tool.CodeNoWorkspace, ""},
	} {
		t.Run(name, func(t *testing.T) {
			out := nativetest.Call(t, t.TempDir(), "signal:cleanup", tc.input)
			if tc.code == tool.CodeInvalidInput {
				nativetest.Refused(t, out, tc.path)
				return
			}
			assert.Equal(t, tc.code, nativetest.Code(t, out))
			assert.Contains(t, out.Metadata, "warnings")
		})
	}
}
