package delivery

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// validateWorkspace writes a workspace with one defined lane, one initiative and the
// given WU files (name → YAML).
func validateWorkspace(t *testing.T, wus map[string]string, stamps ...string) *Workspace {
	t.Helper()
	root := realTemp(t)
	writeFile(t, filepath.Join(root, ConfigFile), "id: t\nsoftware_delivery:\n  lanes:\n    definitions:\n      - name: Core\n")
	writeFile(t, filepath.Join(root, "docs/tasks/initiatives/INIT-1.yaml"),
		"id: INIT-1\nslug: public-api\ntitle: Public API\nstatus: open\ncreated: 2026-01-01\n")
	for name, body := range wus {
		writeFile(t, filepath.Join(root, "docs/tasks/wu", name), body)
	}
	for _, id := range stamps {
		require.NoError(t, WriteStamp(root, id, "t", "2026-01-01"))
	}
	ws, err := Load(root, root)
	require.NoError(t, err)
	return ws
}

// strictWU is a WU that passes every strict rule, with the given id, status and extra keys.
func strictWU(id, status, extra string) string {
	return "id: " + id + "\ntitle: T\nlane: Core\nstatus: " + status + "\ncreated: 2026-01-01\n" +
		"description: A description that is comfortably longer than the fifty character minimum.\n" +
		"acceptance:\n  - works\ncode_paths:\n  - a.go\nexposure: api\n" + extra
}

func TestValidateWUs(t *testing.T) {
	ws := validateWorkspace(t, map[string]string{
		"WU-1.yaml": strictWU("WU-1", "ready", "initiative: public-api\nblocked_by:\n  - WU-2\n"),
		"WU-2.yaml": strictWU("WU-2", "done", ""),  // no stamp
		"WU-3.yaml": strictWU("WU-3", "ready", ""), // stamped
		"WU-4.yaml": strictWU("WU-5", "ready", ""), // wrong id
		"WU-5.yaml": strictWU("WU-5", "in_progress", "initiative: INIT-9\nblocks:\n  - WU-99\n"),
		"WU-6.yaml": "id: WU-6\ntitle: T\nlane: Elsewhere\ncreated: 2026-01-01\ndescription: short\nacceptance: []\n",
		"WU-7.yaml": "id: [\n",
		"WU-8.yaml": strictWU("WU-8", "done", ""),
	}, "WU-3", "WU-8")
	files, err := ListWUs(ws)
	require.NoError(t, err)

	rep, err := ValidateWUs(ws, files, "", false)
	require.NoError(t, err)
	assert.Equal(t, 8, rep.Checked)

	w6, err := ReadWU(ws, "WU-6")
	require.NoError(t, err)
	var want []ValidationFinding
	add := func(isErr bool, id, msg string) {
		want = append(want, ValidationFinding{ID: id, Message: msg, Error: isErr})
	}
	add(true, "WU-2", "done but stamp .lumenflow/stamps/WU-2.done is missing")
	add(true, "WU-3", "stamp .lumenflow/stamps/WU-3.done exists but status is ready")
	add(true, "WU-4", "id WU-5 does not match file name WU-4.yaml")
	add(true, "WU-4", "duplicate id WU-5 (files WU-4, WU-5)")
	add(true, "WU-5", "duplicate id WU-5 (files WU-4, WU-5)")
	add(true, "WU-5", "initiative INIT-9 does not exist")
	add(false, "WU-5", "blocks WU-99 does not exist")
	strict := ValidateStrict(w6, ws.Config.MinDescriptionLength)
	require.NotEmpty(t, strict, "WU-6 breaks strict rules")
	for _, e := range strict {
		add(false, "WU-6", e)
	}
	add(false, "WU-6", `lane "Elsewhere" is not defined in workspace.yaml`)
	add(true, "WU-7", AsError(files[6].Err).Message)
	assert.Equal(t, want, rep.Findings)
	assert.Len(t, rep.Errors(), 7)
	assert.Len(t, rep.Warnings(), 1+len(strict)+1)

	one, err := ValidateWUs(ws, files, "WU-3", false)
	require.NoError(t, err)
	assert.Equal(t, 1, one.Checked)
	assert.Equal(t, []ValidationFinding{{ID: "WU-3", Message: "stamp .lumenflow/stamps/WU-3.done exists but status is ready", Error: true}}, one.Findings)

	done, err := ValidateWUs(ws, files, "", true)
	require.NoError(t, err)
	assert.Equal(t, 2, done.Checked, "WU-2 and WU-8; the unparsable file is skipped")
	assert.Equal(t, []ValidationFinding{{ID: "WU-2", Message: "done but stamp .lumenflow/stamps/WU-2.done is missing", Error: true}}, done.Findings)
	assert.Empty(t, done.Warnings())
}
