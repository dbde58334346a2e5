package shell

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/delivery/wsindex"
	"github.com/cmdbridge/cmdbridge/tool"
)

func workspaceDir(t *testing.T, config string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(root, delivery.ConfigFile), []byte(config), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "sub"), 0o755))
	return root
}

func TestReadWorkspaceUsesTheHostIndex(t *testing.T) {
	root := workspaceDir(t, "id: acme\n")
	store := tool.NewStore()
	defer store.Close()
	env := &tool.Env{Dir: filepath.Join(root, "sub"), LookupEnv: tool.EnvFromMap(nil), Store: store}
	ws, err := ReadWorkspace(t.Context(), env, ops.WUKeys...)
	require.NoError(t, err)
	assert.Equal(t, root, ws.Root)
	assert.NotNil(t, ws.Source, "a host with a store reads through the index")
	v, ok := store.Lookup(indexKey(root))
	require.True(t, ok, "the index is kept under the workspace root")
	x := v.(*wsindex.Index)

	again, err := ReadWorkspace(t.Context(), env, ops.WUKeys...)
	require.NoError(t, err)
	assert.Same(t, ws.Config, again.Config, "the second call reuses the parsed configuration")
	after, _ := store.Lookup(indexKey(root))
	assert.Same(t, x, after)

	env.Store = nil
	cold, err := ReadWorkspace(t.Context(), env, ops.WUKeys...)
	require.NoError(t, err)
	assert.Nil(t, cold.Source, "without a store the disk is read")
	assert.Equal(t, ws.Config, cold.Config)
}

// Warm and cold fail alike: no workspace, and a wrong-typed key the tool reads.
func TestReadWorkspaceFailsAsTheDiskPathDoes(t *testing.T) {
	bad := workspaceDir(t, "id: acme\nsoftware_delivery:\n  wu:\n    minDescriptionLength: many\n")
	for _, dir := range []string{t.TempDir(), bad} {
		store := tool.NewStore()
		warm := &tool.Env{Dir: dir, LookupEnv: tool.EnvFromMap(nil), Store: store}
		cold := &tool.Env{Dir: dir, LookupEnv: tool.EnvFromMap(nil)}
		_, werr := ReadWorkspace(t.Context(), warm, ops.WUKeys...)
		_, cerr := ReadWorkspace(t.Context(), cold, ops.WUKeys...)
		require.Error(t, cerr)
		assert.Equal(t, delivery.ToolError(cerr), delivery.ToolError(werr), dir)
		require.NoError(t, store.Close())
	}
}

func TestWroteRefreshesTheIndex(t *testing.T) {
	root := workspaceDir(t, "id: acme\n")
	store := tool.NewStore()
	defer store.Close()
	env := &tool.Env{Dir: root, LookupEnv: tool.EnvFromMap(nil), Store: store}
	Wrote(env, root) // no index yet: nothing to do, nothing built
	_, ok := store.Lookup(indexKey(root))
	require.False(t, ok)

	_, err := ReadWorkspace(t.Context(), env)
	require.NoError(t, err)
	v, _ := store.Lookup(indexKey(root))
	x := v.(*wsindex.Index)
	before := x.Stats()
	require.NoError(t, os.WriteFile(filepath.Join(root, delivery.ConfigFile), []byte("id: acme\nname: Renamed\n"), 0o644))
	Wrote(env, root)
	assert.Equal(t, before.Parses+1, x.Stats().Parses, "the write is parsed by the writer's refresh")
	ws, err := ReadWorkspace(t.Context(), env)
	require.NoError(t, err)
	assert.Equal(t, "Renamed", storage.MapGet(storage.Root(ws.Doc), "name").Value)
}
