// Scaffolded by `cmdbridge scaffold state:doctor`: the native tool's contract with its legacy command.

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

// TestDoctorChecksAndFixes: a done WU without its stamp and a blocked_by naming no WU
// fail the check with the report as data and write nothing; fix writes the stamp and
// commits it, and only the unfixable issue remains; a clean workspace passes.
func TestDoctorChecksAndFixes(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, "docs/tasks/wu/WU-1.yaml", "id: WU-1\ntitle: Done without stamp\nlane: 'Core: API'\n"+
		"status: done\ncreated: 2026-02-01\ncompleted: 2026-02-10\ndescription: ''\nacceptance: []\n")
	nativetest.Write(t, root, "docs/tasks/wu/WU-2.yaml", "id: WU-2\ntitle: Waits on a ghost\nlane: 'Core: API'\n"+
		"status: ready\ncreated: 2026-02-01\ndescription: ''\nacceptance: []\nblocked_by: [WU-99]\n")
	nativetest.Git(t, root, "add", "-A")
	nativetest.Git(t, root, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "wus")
	stamp := filepath.Join(root, ".lumenflow", "stamps", "WU-1.done")

	for _, input := range []string{`{}`, `{"fix":true,"dry_run":true}`} {
		out := nativetest.Call(t, root, "state:doctor", input)
		assert.Equal(t, tool.CodeCheckFailed, nativetest.Code(t, out), input)
		report, ok := out.Data.(map[string]any)
		require.True(t, ok, "the failure carries the report: %#v", out.Data)
		assert.Equal(t, 2.0, report["remaining"])
		issues := report["issues"].([]any)
		require.Len(t, issues, 2)
		assert.Equal(t, "YAML_DONE_NO_STAMP", issues[0].(map[string]any)["code"])
		assert.Equal(t, "DANGLING_BLOCKED_BY", issues[1].(map[string]any)["code"])
		assert.NoFileExists(t, stamp, "a check writes nothing")
	}

	out := nativetest.Call(t, root, "state:doctor", `{"fix":true}`)
	assert.Equal(t, tool.CodeCheckFailed, nativetest.Code(t, out))
	report := out.Data.(map[string]any)
	assert.Equal(t, 1.0, report["fixed"])
	assert.Equal(t, 1.0, report["remaining"])
	b, err := os.ReadFile(stamp)
	require.NoError(t, err)
	assert.Equal(t, "WU WU-1 — Done without stamp\nCompleted: 2026-02-10\n", string(b))
	assert.Equal(t, "fix(state-doctor): repair 1 issue(s)", nativetest.Git(t, root, "log", "-1", "--format=%s"))

	nativetest.Write(t, root, "docs/tasks/wu/WU-2.yaml", "id: WU-2\ntitle: Waits on nothing\nlane: 'Core: API'\n"+
		"status: ready\ncreated: 2026-02-01\ndescription: ''\nacceptance: []\n")
	data := nativetest.Data(t, nativetest.Call(t, root, "state:doctor", `{}`))
	assert.Equal(t, []any{}, data["issues"])
	assert.Nil(t, data["commit"])

	out = nativetest.Call(t, t.TempDir(), "state:doctor", `{}`)
	assert.Equal(t, tool.CodeNoWorkspace, nativetest.Code(t, out))
}
