// Scaffolded by `cmdbridge scaffold lane:suggest`: the native tool's contract with its legacy command.

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

// TestSuggestProposesUncoveredDirectories: each top-level directory (packages/ expanded)
// with a file no lane covers is a suggestion, sorted by path; nothing is written without
// output; output writes the snippet, confined to the workspace.
func TestSuggestProposesUncoveredDirectories(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, "workspace.yaml", "id: acme\nsoftware_delivery:\n  lanes:\n    definitions:\n"+
		"      - name: 'Core: API'\n        code_paths: [internal/api/**]\n")
	nativetest.Write(t, root, "internal/api/health.go", "package api\n")
	nativetest.Write(t, root, "internal/store/db.go", "package store\n")
	nativetest.Write(t, root, "packages/web-ui/index.ts", "x\n")
	nativetest.Write(t, root, "vendor/x/y.go", "x\n")
	nativetest.Git(t, root, "add", "-A")

	data := nativetest.Data(t, nativetest.Call(t, root, "lane:suggest", `{}`))
	assert.Equal(t, []any{
		map[string]any{"name": "Project: Internal", "code_paths": []any{"internal/**"}, "wip_limit": 1.0, "lock_policy": "all", "uncovered_files": 1.0},
		map[string]any{"name": "Packages: Web Ui", "code_paths": []any{"packages/web-ui/**"}, "wip_limit": 1.0, "lock_policy": "all", "uncovered_files": 1.0},
	}, data["suggestions"])
	assert.Nil(t, data["output"])
	assert.NoFileExists(t, filepath.Join(root, "lanes", "suggested.yaml"))

	data = nativetest.Data(t, nativetest.Call(t, root, "lane:suggest", `{"output":"lanes/suggested.yaml"}`))
	assert.Equal(t, "lanes/suggested.yaml", data["output"])
	b, err := os.ReadFile(filepath.Join(root, "lanes", "suggested.yaml"))
	require.NoError(t, err)
	assert.Contains(t, string(b), "      - name: 'Packages: Web Ui'\n")

	data = nativetest.Data(t, nativetest.Call(t, filepath.Join(root, "internal"), "lane:suggest", `{"output":"api/lanes.yaml"}`))
	assert.Equal(t, "internal/api/lanes.yaml", data["output"], "output is resolved against the call's directory")
	assert.FileExists(t, filepath.Join(root, "internal", "api", "lanes.yaml"))

	out := nativetest.Call(t, root, "lane:suggest", `{"output":"../outside.yaml"}`)
	assert.Equal(t, tool.CodePathOutsideWorkspace, nativetest.Code(t, out))
	assert.NoFileExists(t, filepath.Join(filepath.Dir(root), "outside.yaml"))

	out = nativetest.Call(t, t.TempDir(), "lane:suggest", `{}`)
	assert.Equal(t, tool.CodeNoWorkspace, nativetest.Code(t, out))
}
