// Scaffolded by `cmdbridge scaffold config:set`: the native tool's contract with its legacy command.

package config_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/config"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

func TestSetWritesAndCommits(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, "scratch.txt", "not committed")
	out := call(t, root, "config:set", `{"key":"software_delivery.git.push","value":"false"}`, nil)
	data := nativetest.Data(t, out)
	assert.Equal(t, "software_delivery.git.push", data["key"])
	assert.Nil(t, data["previous"])
	assert.Equal(t, false, data["value"])
	cm, ok := data["commit"].(map[string]any)
	require.True(t, ok, "commit: %#v", data["commit"])
	assert.Equal(t, "chore: config:set software_delivery.git.push=false", cm["subject"])
	assert.Equal(t, nativetest.Git(t, root, "rev-parse", "HEAD"), cm["sha"])
	assert.Equal(t, []string{}, out.Metadata["warnings"])

	yaml, err := os.ReadFile(filepath.Join(root, "workspace.yaml"))
	require.NoError(t, err)
	assert.Contains(t, string(yaml), "  git:\n    push: false\n")
	assert.Equal(t, "?? scratch.txt", nativetest.Git(t, root, "status", "--porcelain"), "only workspace.yaml is committed")

	// Numbers are typed, and a later call sees the earlier one's typed value as previous.
	data = nativetest.Data(t, call(t, root, "config:set", `{"key":"control_plane.limit","value":"3"}`, nil))
	assert.Nil(t, data["previous"])
	assert.Equal(t, float64(3), data["value"])
	data = nativetest.Data(t, call(t, root, "config:set", `{"key":"control_plane.limit","value":"four"}`, nil))
	assert.Equal(t, float64(3), data["previous"])
	assert.Equal(t, "four", data["value"])
}

func TestSetFailsWithTheCommandsCodes(t *testing.T) {
	outside := t.TempDir()
	cases := []struct {
		name, input string
		inside      bool
		code        string
	}{
		{"absent key", `{"value":"x"}`, true, nativetest.InvalidAt("/key")},
		{"absent value", `{"key":"memory_namespace"}`, true, nativetest.InvalidAt("/value")},
		{"managed key", `{"key":"lanes","value":"x"}`, true, tool.CodeValidation},
		{"whole section", `{"key":"software_delivery","value":"x"}`, true, tool.CodeValidation},
		{"through a list", `{"key":"software_delivery.lanes.definitions.x","value":"x"}`, true, tool.CodeValidation},
		{"no workspace", `{"key":"memory_namespace","value":"x"}`, false, tool.CodeNoWorkspace},
		{"validation before no workspace", `{"key":"lanes","value":"x"}`, false, tool.CodeValidation},
		{"unknown root key is refused by the schema", `{"key":"nope","value":"x"}`, false, nativetest.InvalidAt("/key")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := outside
			if tc.inside {
				dir = nativetest.Workspace(t)
			}
			assert.Equal(t, tc.code, nativetest.Outcome(t, call(t, dir, "config:set", tc.input, nil)))
			if tc.inside {
				assert.Empty(t, nativetest.Git(t, dir, "status", "--porcelain"), "nothing is written on failure")
			}
		})
	}
}
