package parity_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/parity"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

type configGetIn struct {
	Key string `json:"key" jsonschema:"dotted path from the root of workspace.yaml"`
}

// configGet is a test-only native config:get, the fixture command's twin, correct for
// scalar and mapping keys; mutate lets a test inject a defect into a copy of it.
func configGet(mutate func(env *tool.Env, data map[string]any)) native.Tool {
	return native.New(tool.Spec{Name: "config:get"}, func(ctx context.Context, env *tool.Env, in configGetIn) tool.Output {
		b, err := os.ReadFile(filepath.Join(env.Dir, "workspace.yaml"))
		if err != nil {
			return tool.Fail(tool.CodeNoWorkspace, "%v", err)
		}
		var doc any
		if err := yaml.Unmarshal(b, &doc); err != nil {
			return tool.Fail(tool.CodeConfigInvalid, "%v", err)
		}
		v, set := doc, true
		for _, seg := range strings.Split(in.Key, ".") {
			m, ok := v.(map[string]any)
			if !ok {
				v, set = nil, false
				break
			}
			if v, ok = m[seg]; !ok {
				v, set = nil, false
				break
			}
		}
		data := map[string]any{"key": in.Key, "set": set, "value": v}
		if mutate != nil {
			mutate(env, data)
		}
		return tool.OK(data)
	})
}

func workspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "workspace.yaml"),
		[]byte("id: acme\nsoftware_delivery:\n  git:\n    push: true\n    auto_commit: false\n"), 0o644))
	return dir
}

func runConfigGet(t *testing.T, tl native.Tool, key string) *parity.Report {
	t.Helper()
	reg := native.NewRegistry()
	require.NoError(t, reg.Add(tl))
	ws := workspace(t)
	rep, err := parity.Run(context.Background(), "config:get", json.RawMessage(`{"key":"`+key+`"}`), parity.Config{
		Workspace: ws, Commands: fxCommands(t), Native: reg, Binary: fxBin,
	})
	require.NoError(t, err)
	after, err := parity.Snapshot(ws)
	require.NoError(t, err)
	require.Len(t, after, 1, "the caller's workspace is never written")
	return rep
}

func TestRunCorrectNativePasses(t *testing.T) {
	for _, key := range []string{"software_delivery.git.push", "software_delivery.git", "id"} {
		t.Run(key, func(t *testing.T) {
			rep := runConfigGet(t, configGet(nil), key)
			assert.Equal(t, []string{"subprocess", "adapter", "native"}, rep.Lanes)
			assert.True(t, rep.OK(), rep.String())
			assert.Contains(t, string(rep.Common), `"key": "`+key+`"`)
		})
	}
}

func TestRunOneFieldDifferenceNamesTheField(t *testing.T) {
	wrong := configGet(func(_ *tool.Env, data map[string]any) { data["set"] = false })
	rep := runConfigGet(t, wrong, "software_delivery.git.push")
	require.False(t, rep.OK())
	require.Len(t, rep.Diffs, 1, rep.String())
	d := rep.Diffs[0]
	assert.Equal(t, "subprocess/native", d.Lanes)
	assert.Equal(t, "/data/set", d.Path)
	assert.Equal(t, "true", d.Want)
	assert.Equal(t, "false", d.Got)
	assert.Contains(t, rep.String(), "subprocess/native output /data/set\n    want: true\n    got:  false")
}

func TestRunStrayFileShowsInTreeDiff(t *testing.T) {
	stray := configGet(func(env *tool.Env, _ map[string]any) {
		_ = os.WriteFile(filepath.Join(env.Dir, "stray.txt"), []byte("oops\n"), 0o644)
	})
	rep := runConfigGet(t, stray, "id")
	require.False(t, rep.OK())
	require.Len(t, rep.Diffs, 1, rep.String())
	d := rep.Diffs[0]
	assert.Equal(t, parity.KindTree, d.Kind)
	assert.Equal(t, "subprocess/native", d.Lanes)
	assert.Equal(t, "stray.txt", d.Path)
	assert.Equal(t, "(absent)", d.Want)
	assert.Contains(t, rep.String(), "subprocess/native tree stray.txt")
}

func TestRunChangedFileHasUnifiedDiff(t *testing.T) {
	edit := configGet(func(env *tool.Env, _ map[string]any) {
		p := filepath.Join(env.Dir, "workspace.yaml")
		b, _ := os.ReadFile(p)
		_ = os.WriteFile(p, []byte(strings.Replace(string(b), "push: true", "push: false", 1)), 0o644)
	})
	rep := runConfigGet(t, edit, "id")
	require.Len(t, rep.Diffs, 1, rep.String())
	assert.Equal(t, "workspace.yaml", rep.Diffs[0].Path)
	assert.Contains(t, rep.Diffs[0].Unified, "-    push: true\n+    push: false\n")
}

func TestRunNeedsTwoLanes(t *testing.T) {
	_, err := parity.Run(context.Background(), "config:get", nil, parity.Config{
		Workspace: workspace(t), Lanes: []string{"adapter"},
	})
	assert.ErrorContains(t, err, "need two to compare")
	_, err = parity.Run(context.Background(), "no:such", nil, parity.Config{Workspace: workspace(t), Commands: fxCommands(t), Binary: "x"})
	assert.ErrorContains(t, err, "0 lane(s)")
}

// TestRunSkipKeepsPathsFromTheLanes: what Config.Skip names is not copied to any lane
// (the tool sees no want/), not counted as removed by the call, and a lane that writes
// there anyway is still a difference.
func TestRunSkipKeepsPathsFromTheLanes(t *testing.T) {
	run := func(t *testing.T, mutate func(*tool.Env, map[string]any)) *parity.Report {
		t.Helper()
		reg := native.NewRegistry()
		require.NoError(t, reg.Add(configGet(mutate)))
		ws := workspace(t)
		require.NoError(t, os.MkdirAll(filepath.Join(ws, "want"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(ws, "want", "out.json"), []byte("{}\n"), 0o644))
		rep, err := parity.Run(context.Background(), "config:get", json.RawMessage(`{"key":"id"}`), parity.Config{
			Workspace: ws, Commands: fxCommands(t), Native: reg, Binary: fxBin,
			Lanes: []string{parity.LaneSubprocess, parity.LaneNative}, Skip: func(rel string) bool { return rel == "want" },
		})
		require.NoError(t, err)
		return rep
	}

	sawGoldens := false
	rep := run(t, func(env *tool.Env, _ map[string]any) {
		_, err := os.Stat(filepath.Join(env.Dir, "want"))
		sawGoldens = err == nil
	})
	assert.False(t, sawGoldens, "the native lane's copy has no want/")
	assert.True(t, rep.OK(), rep.String())
	assert.Contains(t, string(rep.Common), `"files": []`, "want/ is not reported as removed")

	rep = run(t, func(env *tool.Env, _ map[string]any) {
		_ = os.MkdirAll(filepath.Join(env.Dir, "want"), 0o755)
		_ = os.WriteFile(filepath.Join(env.Dir, "want", "out.json"), []byte("forged\n"), 0o644)
	})
	require.False(t, rep.OK(), "a write into a skipped path is still compared")
	var paths []string
	for _, d := range rep.Diffs {
		paths = append(paths, d.Path)
	}
	assert.Contains(t, paths, "want/out.json", rep.String())
}

// TestRunKeptLanesStartFromTheWorkspace: with Keep, the lanes' directories outlive a
// call, and each call still starts every lane from exactly the workspace's content:
// what a lane wrote in an earlier call is gone, and what changed in the workspace since
// is there.
func TestRunKeptLanesStartFromTheWorkspace(t *testing.T) {
	ws := workspace(t)
	kept := &parity.Kept{}
	var dirs []string
	strayAtStart := false
	call := func(write bool) *parity.Report {
		t.Helper()
		reg := native.NewRegistry()
		require.NoError(t, reg.Add(configGet(func(env *tool.Env, _ map[string]any) {
			dirs = append(dirs, env.Dir)
			_, err := os.Stat(filepath.Join(env.Dir, "stray.txt"))
			strayAtStart = strayAtStart || err == nil
			if write {
				require.NoError(t, os.WriteFile(filepath.Join(env.Dir, "stray.txt"), []byte("x"), 0o644))
			}
		})))
		rep, err := parity.Run(context.Background(), "config:get", json.RawMessage(`{"key":"id"}`), parity.Config{
			Workspace: ws, Commands: fxCommands(t), Native: reg, Binary: fxBin,
			Lanes: []string{parity.LaneSubprocess, parity.LaneNative}, Keep: kept,
		})
		require.NoError(t, err)
		return rep
	}
	rep := call(true)
	require.False(t, rep.OK(), "the native lane's stray file is a difference")

	require.NoError(t, os.WriteFile(filepath.Join(ws, "workspace.yaml"), []byte("id: other\n"), 0o644))
	rep = call(false)
	assert.True(t, rep.OK(), rep.String())
	assert.Contains(t, string(rep.Common), `"value": "other"`, "the lanes see the workspace as it is now")
	assert.False(t, strayAtStart, "a lane starts without what it wrote in an earlier call")
	require.Len(t, dirs, 2)
	assert.Equal(t, dirs[0], dirs[1], "the native lane kept its directory")
	_, err := os.Stat(dirs[0])
	require.NoError(t, err, "the directory outlives the call")
	require.NoError(t, kept.Close())
	_, err = os.Stat(dirs[0])
	assert.True(t, os.IsNotExist(err), "Close removes it: %v", err)
}
