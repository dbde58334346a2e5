// Scaffolded by `cmdbridge scaffold wu:delete`: the native tool's contract with its legacy command.

package wu_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	_ "github.com/cmdbridge/cmdbridge/commands/wu"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestDelete: a dry run changes nothing; a deletion removes the YAML, the stamp, the WU's
// event lines, its initiative link and a lock it holds, in one commit; a repeated id
// counts once; an in-progress WU stops everything before anything is deleted.
func TestDelete(t *testing.T) {
	ws := nt.Workspace(t)
	nt.WU(t, ws, "WU-1", "Core: API")
	nt.WU(t, ws, "WU-2", "Core: API")
	nt.Write(t, ws, ".lumenflow/stamps/WU-1.done", "WU WU-1\n")
	nt.Write(t, ws, ".lumenflow/state/wu-events.jsonl",
		`{"type":"create","wuId":"WU-1","timestamp":"2026-02-27T10:00:00.000Z"}`+"\n"+
			`{"type":"create","wuId":"WU-2","timestamp":"2026-02-27T10:00:00.000Z"}`+"\n")
	nt.Write(t, ws, "docs/tasks/initiatives/INIT-1.yaml", "id: INIT-1\nslug: api\ntitle: API\nstatus: open\ncreated: 2026-02-27\nwus:\n  - WU-1\n  - WU-2\n")
	nt.Write(t, ws, ".lumenflow/locks/core-api.lock", `{"lane":"Core: API","wuId":"WU-1","owner":"other@example.com","timestamp":"2026-03-01T09:30:00.000Z"}`+"\n")
	nt.Git(t, ws, "add", "-A")
	nt.Git(t, ws, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "fixtures")

	want := map[string]any{"deleted": []any{"WU-1"},
		"files_removed":  []any{"docs/tasks/wu/WU-1.yaml", ".lumenflow/stamps/WU-1.done"},
		"events_removed": float64(1), "initiatives_updated": []any{"INIT-1"}, "dry_run": true, "commit": nil}
	d := nt.Data(t, nt.Call(t, ws, "wu:delete", `{"id":["WU-1","WU-1"],"dry_run":true}`))
	assert.Equal(t, want, d)
	assert.FileExists(t, filepath.Join(ws, "docs", "tasks", "wu", "WU-1.yaml"), "a dry run deletes nothing")
	assert.Empty(t, nt.Git(t, ws, "status", "--porcelain"))

	d = nt.Data(t, nt.Call(t, ws, "wu:delete", `{"id":["WU-1"]}`))
	want["dry_run"] = false
	want["commit"] = map[string]any{"sha": nt.Git(t, ws, "rev-parse", "HEAD"), "subject": "docs: delete wu-1", "pushed": false}
	assert.Equal(t, want, d)
	assert.NoFileExists(t, filepath.Join(ws, "docs", "tasks", "wu", "WU-1.yaml"))
	assert.NoFileExists(t, filepath.Join(ws, ".lumenflow", "stamps", "WU-1.done"))
	assert.NoFileExists(t, filepath.Join(ws, ".lumenflow", "locks", "core-api.lock"))
	assert.NotContains(t, readFile(t, ws, ".lumenflow/state/wu-events.jsonl"), "WU-1")
	assert.Equal(t, "id: INIT-1\nslug: api\ntitle: API\nstatus: open\ncreated: 2026-02-27\nwus:\n  - WU-2\n",
		readFile(t, ws, "docs/tasks/initiatives/INIT-1.yaml"))

	nt.WU(t, ws, "WU-3", "Core: API")
	nt.Write(t, ws, "docs/tasks/wu/WU-2.yaml", "id: WU-2\ntitle: Two\nlane: 'Core: API'\nstatus: in_progress\ncreated: 2026-02-27\ndescription: x\nacceptance: []\n")
	out := nt.Call(t, ws, "wu:delete", `{"id":["WU-3","WU-2"]}`)
	assert.Equal(t, tool.CodeInvalidTransition, nt.Code(t, out))
	assert.FileExists(t, filepath.Join(ws, "docs", "tasks", "wu", "WU-3.yaml"), "all ids are checked first")
}

// TestDeleteFailures: the schema refuses a missing, empty or malformed id list (an empty
// list is the command's missing --id); an unknown WU is NOT_FOUND.
func TestDeleteFailures(t *testing.T) {
	refusals(t, "wu:delete", []refusal{
		{"missing id", `{"dry_run":true}`, "/id"},
		{"malformed id", `{"id":["WU-1","one"]}`, "/id/1"},
		{"empty list", `{"id":[]}`, "/id"},
	})
	nt.Failures(t, "wu:delete", nil, []nt.Failure{
		nt.Case("no workspace", `{"id":["WU-1"]}`, true, tool.CodeNoWorkspace),
		nt.Case("unknown WU", `{"id":["WU-9"]}`, false, tool.CodeNotFound),
	})
}
