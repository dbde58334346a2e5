// Scaffolded by `cmdbridge scaffold mem:init`: the native tool's contract with its legacy command.

package memory_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/memory"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestInitCreatesWhatIsMissing: the first call creates the directory, an empty
// memory.jsonl and config.yaml (§1.8); a second call creates nothing and leaves an existing
// memory.jsonl as it was; a missing config.yaml alone is recreated.
func TestInitCreatesWhatIsMissing(t *testing.T) {
	root := nativetest.Workspace(t)
	data := nativetest.Data(t, nativetest.Call(t, root, "mem:init", `{}`))
	assert.Equal(t, map[string]any{"memory_dir": ".lumenflow/memory", "created_memory_jsonl": true, "created_config_yaml": true}, data)
	assert.Equal(t, "", read(t, root, ".lumenflow/memory/memory.jsonl"))
	assert.Equal(t, "version: 1\nretention:\n  ephemeral: 0\n  session: 3600\n  wu: 604800\n  project: -1\n",
		read(t, root, ".lumenflow/memory/config.yaml"))

	kept := `{"id":"mem-aaaa","type":"note","lifecycle":"session","content":"kept","created_at":"2026-03-01T09:00:00.000Z"}` + "\n"
	nativetest.Write(t, root, ".lumenflow/memory/memory.jsonl", kept)
	data = nativetest.Data(t, nativetest.Call(t, root, "mem:init", `{}`))
	assert.Equal(t, false, data["created_memory_jsonl"])
	assert.Equal(t, false, data["created_config_yaml"])
	assert.Equal(t, kept, read(t, root, ".lumenflow/memory/memory.jsonl"), "existing files are never touched")

	require.NoError(t, os.Remove(filepath.Join(root, ".lumenflow/memory/config.yaml")))
	data = nativetest.Data(t, nativetest.Call(t, root, "mem:init", `{}`))
	assert.Equal(t, false, data["created_memory_jsonl"])
	assert.Equal(t, true, data["created_config_yaml"])
	assert.Equal(t, kept, read(t, root, ".lumenflow/memory/memory.jsonl"))
}

// TestInitFailures: an unknown property is refused and outside a workspace the call is
// NO_WORKSPACE; neither creates anything.
func TestInitFailures(t *testing.T) {
	root := nativetest.Workspace(t)
	out := nativetest.Call(t, root, "mem:init", `{"wu":"WU-1"}`)
	assert.Equal(t, tool.CodeInvalidInput, nativetest.Code(t, out))
	assert.NoDirExists(t, filepath.Join(root, ".lumenflow"))

	dir := t.TempDir()
	out = nativetest.Call(t, dir, "mem:init", `{}`)
	assert.Equal(t, tool.CodeNoWorkspace, nativetest.Code(t, out))
	assert.Contains(t, out.Metadata, "warnings")
	assert.NoDirExists(t, filepath.Join(dir, ".lumenflow"))
}
