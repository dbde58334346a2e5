package ops

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// testConfig declares two lanes: one locked only while active, one never locked.
const testConfig = `id: test
software_delivery:
  lanes:
    definitions:
      - name: 'Core: API'
        wip_limit: 1
        lock_policy: active
      - name: Docs
        lock_policy: none
`

const testDescription = "Expose GET /healthz returning build info so the load balancer can probe instances."

// fixture is a workspace in a temp dir outside any git repository (so nothing commits)
// with a frozen clock and seeded ids.
type fixture struct {
	t   *testing.T
	dir string
	ws  *delivery.Workspace
	rt  *delivery.Runtime
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	f := &fixture{t: t, dir: dir}
	f.write(delivery.ConfigFile, testConfig)
	env := tool.EnvFromMap(map[string]string{"DELIVERY_NOW": "2026-03-02T10:00:00Z", "DELIVERY_SEED": "ops-test"})
	f.rt, err = delivery.NewRuntime(dir, env)
	require.NoError(t, err)
	f.ws, err = OpenWorkspace(t.Context(), dir, env, WUKeys...)
	require.NoError(t, err)
	return f
}

func (f *fixture) write(rel, content string) {
	f.t.Helper()
	p := filepath.Join(f.dir, filepath.FromSlash(rel))
	require.NoError(f.t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(f.t, os.WriteFile(p, []byte(content), 0o644))
}

func (f *fixture) read(rel string) string {
	f.t.Helper()
	data, err := os.ReadFile(filepath.Join(f.dir, filepath.FromSlash(rel)))
	require.NoError(f.t, err)
	return string(data)
}

// create makes a valid ready WU in lane and returns its id.
func (f *fixture) create(lane string, blockedBy ...string) string {
	f.t.Helper()
	data, _, err := WUCreate(f.t.Context(), f.ws, f.rt, WUCreateInput{Lane: lane, Title: "Add health endpoint",
		Description: testDescription, Acceptance: []string{"GET /healthz returns 200"},
		CodePaths: []string{"internal/api/health.go"}, TestPathsUnit: []string{"internal/api/health_test.go"},
		Exposure: "api", BlockedBy: blockedBy, NoStrict: len(blockedBy) > 0})
	require.NoError(f.t, err)
	return data.ID
}

// claim creates and claims a WU in lane (branch-only: there is no git repository).
func (f *fixture) claim(lane string) string {
	f.t.Helper()
	id := f.create(lane)
	_, _, err := WUClaim(f.t.Context(), f.ws, f.rt, WUClaimInput{ID: id, Lane: lane})
	require.NoError(f.t, err)
	return id
}

// requireCode asserts err is a delivery error with code.
func requireCode(t *testing.T, code string, err error) {
	t.Helper()
	require.Error(t, err)
	require.Equal(t, code, delivery.CodeOf(err), err.Error())
}

func intPtr(n int) *int { return &n }
