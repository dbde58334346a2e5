// Scaffolded by `cmdbridge scaffold metrics:snapshot`: the native tool's contract with its legacy command.

package flow_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/flow"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestSnapshotWritesTheMetrics: the default file is relative to the workspace root from
// any directory, written as the metrics data in 2-space JSON with a final newline and
// parents created; a given output is relative to the call's directory; a dry run
// writes nothing; nothing is committed.
func TestSnapshotWritesTheMetrics(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.WU(t, root, "WU-1", "Core: API")
	nativetest.Write(t, root, "docs/tasks/wu/WU-2.yaml",
		"id: WU-2\ntitle: B\nlane: 'Core: API'\ntype: bug\nstatus: done\ncreated: 2026-02-27\ndescription: d\nacceptance: []\n"+
			"claimed_at: 2026-03-01T08:00:00.000Z\ncompleted_at: 2026-03-01T20:00:00.000Z\ncompleted: 2026-03-01\n")
	head := nativetest.Git(t, root, "rev-parse", "HEAD")
	sub := filepath.Join(root, "docs")

	data := nativetest.Data(t, nativetest.Call(t, sub, "metrics:snapshot", `{"dry_run":true,"type":"flow"}`))
	assert.Equal(t, ".lumenflow/snapshots/metrics-latest.json", data["path"])
	assert.Equal(t, true, data["dry_run"])
	assert.Equal(t, "flow", data["snapshot"].(map[string]any)["kind"])
	assert.NoDirExists(t, filepath.Join(root, ".lumenflow"))

	data = nativetest.Data(t, nativetest.Call(t, sub, "metrics:snapshot", `{"days":30}`))
	assert.Equal(t, ".lumenflow/snapshots/metrics-latest.json", data["path"])
	assert.Equal(t, false, data["dry_run"])
	written, err := os.ReadFile(filepath.Join(root, ".lumenflow/snapshots/metrics-latest.json"))
	require.NoError(t, err)
	want, err := json.MarshalIndent(data["snapshot"], "", "  ")
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(written), "the file holds the snapshot data")
	assert.True(t, strings.HasPrefix(string(written), "{\n  \"kind\": \"all\",\n  \"days\": 30,\n"), "2-space JSON in the data's key order")
	assert.True(t, strings.HasSuffix(string(written), "}\n"), "a final newline")

	data = nativetest.Data(t, nativetest.Call(t, sub, "metrics:snapshot", `{"type":"dora","output":"reports/dora.json"}`))
	assert.Equal(t, "docs/reports/dora.json", data["path"])
	assert.FileExists(t, filepath.Join(sub, "reports", "dora.json"))
	assert.Equal(t, head, nativetest.Git(t, root, "rev-parse", "HEAD"), "a snapshot is never committed")
}

// TestSnapshotFailures: the schema refuses a type outside its enum ("" included) before
// the handler runs (INVALID_INPUT at /type); an output outside the workspace is refused
// before anything is written.
func TestSnapshotFailures(t *testing.T) {
	root := nativetest.Workspace(t)
	cases := []struct {
		name, dir, input, code, path string
	}{
		{"unknown type", t.TempDir(), `{"type":"bogus"}`, tool.CodeInvalidInput, "/type"},
		{"empty type", root, `{"type":""}`, tool.CodeInvalidInput, "/type"},
		{"no workspace", t.TempDir(), `{}`, tool.CodeNoWorkspace, ""},
		{"outside", root, `{"output":"../outside.json"}`, tool.CodePathOutsideWorkspace, ""},
		{"into .git", root, `{"output":".git/snap.json"}`, tool.CodePathOutsideWorkspace, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := nativetest.Call(t, tc.dir, "metrics:snapshot", tc.input)
			if tc.code == tool.CodeInvalidInput {
				nativetest.Refused(t, out, tc.path)
				return
			}
			assert.Equal(t, tc.code, nativetest.Code(t, out))
			assert.Contains(t, out.Metadata, "warnings")
		})
	}
	assert.NoDirExists(t, filepath.Join(root, ".lumenflow"))
	assert.NoFileExists(t, filepath.Join(filepath.Dir(root), "outside.json"))
}
