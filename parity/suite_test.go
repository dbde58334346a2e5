package parity_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/parity"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// oneScript is a suite directory holding config_get.txtar: the fixture's config:get on
// the adapter and native lanes (in-process, fast).
func oneScript(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "config_get.txtar"), []byte(`parity -lanes adapter,native config:get '{"key":"id"}'
-- workspace.yaml --
id: acme
`), 0o644))
	return dir
}

func nativeConfigGet(t *testing.T, out tool.Output) *native.Registry {
	t.Helper()
	reg := native.NewRegistry()
	require.NoError(t, reg.Add(native.New(tool.Spec{Name: "config:get"}, func(context.Context, *tool.Env, configGetIn) tool.Output { return out })))
	return reg
}

// TestRunSuiteInProgress: a script whose native lane answers NOT_IMPLEMENTED (the
// scaffold's skeleton) is in progress, with its failing diff; any other difference is a
// failure.
func TestRunSuiteInProgress(t *testing.T) {
	for _, tc := range []struct {
		name, status string
		out          tool.Output
	}{
		{"skeleton", parity.StatusInProgress, tool.Fail(tool.CodeNotImplemented, "config:get: the native handler is not written yet")},
		{"wrong answer", parity.StatusFail, tool.OK(map[string]any{"key": "id", "set": true, "value": "other"})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := parity.RunSuite(parity.Suite{Dir: oneScript(t), Commands: fxCommands(t),
				Native: nativeConfigGet(t, tc.out)}, nil)
			require.NoError(t, err)
			require.Len(t, res.Tools, 1)
			r := res.Tools[0]
			assert.Equal(t, tc.status, r.Status, r.Diff)
			assert.Equal(t, []string{"adapter", "native"}, r.Lanes)
			assert.NotEmpty(t, r.Diff)
			assert.False(t, r.RunAt.IsZero(), "each result carries its own run time")
			assert.False(t, res.OK())
		})
	}
}

// TestRunSuiteCheckRefuses: a tool Suite.Check refuses is an error carrying the check's
// message, and its script does not run.
func TestRunSuiteCheckRefuses(t *testing.T) {
	var asked []string
	res, err := parity.RunSuite(parity.Suite{Dir: oneScript(t), Commands: fxCommands(t), Native: native.NewRegistry(),
		Check: func(name string) string {
			asked = append(asked, name)
			return "stale binary: rebuild"
		}}, nil)
	require.NoError(t, err)
	require.Len(t, res.Tools, 1)
	assert.Equal(t, []string{"config:get"}, asked)
	assert.Equal(t, parity.StatusError, res.Tools[0].Status)
	assert.Equal(t, "stale binary: rebuild", res.Tools[0].Diff)
	assert.Empty(t, res.Tools[0].Lanes, "the script did not run")
}
