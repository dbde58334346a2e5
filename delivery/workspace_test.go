package delivery

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/internal/gittest"
	"github.com/cmdbridge/cmdbridge/tool"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}

func noEnv(string) (string, bool) { return "", false }

// realTemp returns a temp dir with symlinks resolved (macOS /tmp, bind mounts).
func realTemp(t *testing.T) string {
	d, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	return d
}

func TestFindRoot(t *testing.T) {
	ws := realTemp(t)
	writeFile(t, filepath.Join(ws, ConfigFile), "id: acme\n")
	deep := filepath.Join(ws, "a", "b")
	require.NoError(t, os.MkdirAll(deep, 0o755))
	other := realTemp(t)
	writeFile(t, filepath.Join(other, ConfigFile), "id: other\n")
	empty := realTemp(t)

	cases := []struct {
		name     string
		dir      string
		env      map[string]string
		wantRoot string
		wantCode string
	}{
		{"directory itself", ws, nil, ws, ""},
		{"nearest ancestor", deep, nil, ws, ""},
		{"env override wins", deep, map[string]string{"DELIVERY_WORKSPACE": other}, other, ""},
		{"env must be absolute", deep, map[string]string{"DELIVERY_WORKSPACE": "rel"}, "", tool.CodeUsage},
		{"env without workspace.yaml", deep, map[string]string{"DELIVERY_WORKSPACE": empty}, "", tool.CodeNoWorkspace},
		{"no workspace", empty, nil, "", tool.CodeNoWorkspace},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root, _, err := FindRoot(context.Background(), tc.dir, tool.EnvFromMap(tc.env))
			if tc.wantCode != "" {
				require.Error(t, err)
				assert.Equal(t, tc.wantCode, CodeOf(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.wantRoot, root)
		})
	}
}

func TestFindRootMapsLinkedWorktreeToMainCheckout(t *testing.T) {
	main := realTemp(t)
	writeFile(t, filepath.Join(main, ConfigFile), "id: acme\n")
	gittest.Init(t, main)
	gittest.Run(t, main, "add", ConfigFile)
	gittest.Run(t, main, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "ws")
	gittest.Run(t, main, "worktree", "add", "-q", "-b", "lane/x/wu-1", "worktrees/x-wu-1", "HEAD")
	wt := filepath.Join(main, "worktrees", "x-wu-1")

	root, checkout, err := FindRoot(context.Background(), wt, noEnv)
	require.NoError(t, err)
	assert.Equal(t, main, root)
	assert.Equal(t, wt, checkout)

	root, checkout, err = FindRoot(context.Background(), main, noEnv)
	require.NoError(t, err)
	assert.Equal(t, main, root)
	assert.Equal(t, main, checkout)
}

func TestParseConfigDefaults(t *testing.T) {
	doc, err := storage.DecodeYAML([]byte("id: acme\nname: Acme\n"))
	require.NoError(t, err)
	c := ParseConfig(doc)
	require.NoError(t, c.Check())
	assert.False(t, c.HasSoftwareDelivery)
	assert.Equal(t, "acme", c.ID)
	assert.Equal(t, "docs/tasks/wu", c.WUDir)
	assert.Equal(t, "docs/tasks/initiatives", c.InitiativesDir)
	assert.Equal(t, "docs/plans", c.PlansDir)
	assert.Equal(t, "worktrees/", c.WorktreesDir)
	assert.Empty(t, c.Lanes)
	assert.Empty(t, c.Gates)
	assert.True(t, c.AutoCommit)
	assert.False(t, c.Push)
	assert.Equal(t, "lane/", c.LaneBranchPrefix)
	assert.Equal(t, 50, c.MinDescriptionLength)
	assert.Equal(t, "P2", c.DefaultPriority)
	assert.Equal(t, "feature", c.DefaultType)
	assert.Equal(t, 7*24*time.Hour, c.SessionTTL)
	assert.Equal(t, 30*24*time.Hour, c.CheckpointTTL)
	assert.Equal(t, 7*24*time.Hour, c.SignalTTL)
	assert.Equal(t, 30*24*time.Hour, c.SignalUnreadTTL)
	assert.Equal(t, 500, c.SignalMaxEntries)
	assert.Equal(t, 4096, c.DelegationContextMax)
	assert.Equal(t, 90*24*time.Hour, c.EventArchiveAfter)
	assert.Equal(t, "chore: lumenflow state cleanup [skip ci]", c.CleanupCommitMessage)
	assert.Equal(t, "claude-code", c.AgentsDefaultClient)
	l, defined := c.Lane("Nope")
	assert.False(t, defined)
	assert.Equal(t, LaneDef{Name: "Nope", WIPLimit: 1, LockPolicy: LockAll}, l)
}

const exampleConfig = `id: acme
name: Acme
software_delivery:
  directories:
    wuDir: tasks
    worktrees: wt/
  lanes:
    definitions:
      - name: 'Core: API'
        wip_limit: 1
        lock_policy: all
        code_paths:
          - internal/api/**
      - name: 'Content: Docs'
        wip_limit: 2
        lock_policy: none
        description: docs and guides
  gates:
    commands:
      - name: vet
        run: go vet ./...
      - name: docs-lint
        run: test -f docs/README.md
        docs_only: true
        timeout: 30s
  git:
    auto_commit: false
    push: true
    laneBranchPrefix: feat/
  memory:
    signalCleanup:
      maxEntries: 10
`

func TestParseConfigValues(t *testing.T) {
	doc, err := storage.DecodeYAML([]byte(exampleConfig))
	require.NoError(t, err)
	c := ParseConfig(doc)
	require.NoError(t, c.Check())
	assert.Equal(t, "tasks", c.WUDir)
	assert.Equal(t, "docs/plans", c.PlansDir)
	assert.Equal(t, []LaneDef{
		{Name: "Core: API", WIPLimit: 1, LockPolicy: LockAll, CodePaths: []string{"internal/api/**"}},
		{Name: "Content: Docs", WIPLimit: 2, LockPolicy: LockNone, Description: "docs and guides"},
	}, c.Lanes)
	assert.Equal(t, []Gate{
		{Name: "vet", Run: "go vet ./...", Timeout: 10 * time.Minute},
		{Name: "docs-lint", Run: "test -f docs/README.md", DocsOnly: true, Timeout: 30 * time.Second},
	}, c.Gates)
	assert.False(t, c.AutoCommit)
	assert.True(t, c.Push)
	assert.Equal(t, "feat/", c.LaneBranchPrefix)
	assert.Equal(t, 10, c.SignalMaxEntries)
	l, ok := c.LaneByKebab("content-docs")
	assert.True(t, ok)
	assert.Equal(t, "Content: Docs", l.Name)
}

func TestParseConfigGateMapForm(t *testing.T) {
	doc, err := storage.DecodeYAML([]byte("software_delivery:\n  gates:\n    commands:\n      test: go test ./...\n      lint_docs_only: mdlint\n      format: ''\n      build: go build ./...\n"))
	require.NoError(t, err)
	c := ParseConfig(doc)
	require.NoError(t, c.Check())
	assert.Equal(t, []Gate{
		{Name: "build", Run: "go build ./...", Timeout: DefaultGateTimeout},
		{Name: "lint_docs_only", Run: "mdlint", DocsOnly: true, Timeout: DefaultGateTimeout},
		{Name: "test", Run: "go test ./...", Timeout: DefaultGateTimeout},
	}, c.Gates)
}

func TestParseConfigWrongTypes(t *testing.T) {
	cases := []struct {
		name, yaml, key, msg string
	}{
		{"bool as string", "software_delivery:\n  git:\n    push: 'yes'\n", "software_delivery.git", "software_delivery.git.push must be a boolean, found a string"},
		{"int as string", "software_delivery:\n  wu:\n    minDescriptionLength: ten\n", "software_delivery.wu", "must be an integer"},
		{"bad priority", "software_delivery:\n  wu:\n    defaultPriority: P9\n", "software_delivery.wu", "one of P0, P1, P2, P3"},
		{"dirs not a mapping", "software_delivery:\n  directories: [a]\n", "software_delivery.directories", "must be a mapping, found a list"},
		{"gates scalar", "software_delivery:\n  gates:\n    commands: go test\n", "software_delivery.gates", "a list or a mapping"},
		{"lane wip 0", "software_delivery:\n  lanes:\n    definitions:\n      - name: A\n        wip_limit: 0\n", "software_delivery.lanes", "wip_limit must be an integer ≥ 1"},
		{"lane bad policy", "software_delivery:\n  lanes:\n    definitions:\n      - name: A\n        lock_policy: some\n", "software_delivery.lanes", "one of all, active, none"},
		{"duplicate lane", "software_delivery:\n  lanes:\n    definitions:\n      - name: A\n      - name: A\n", "software_delivery.lanes", "defined twice"},
		{"bad gate timeout", "software_delivery:\n  gates:\n    commands:\n      - name: a\n        run: x\n        timeout: soon\n", "software_delivery.gates", "duration"},
		{"ttl as string", "software_delivery:\n  memory:\n    sessionTtl: 7d\n", "software_delivery.memory", "milliseconds"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := storage.DecodeYAML([]byte(tc.yaml))
			require.NoError(t, err)
			c := ParseConfig(doc)
			err = c.Check(tc.key)
			require.Error(t, err)
			assert.Equal(t, tool.CodeConfigInvalid, CodeOf(err))
			assert.Contains(t, err.Error(), tc.msg)
			// Keys elsewhere stay readable.
			assert.NoError(t, c.Check("software_delivery.agents"))
		})
	}
}

func TestOpenLoadsConfigAndRejectsBadYAML(t *testing.T) {
	ws := realTemp(t)
	writeFile(t, filepath.Join(ws, ConfigFile), exampleConfig)
	w, err := Open(context.Background(), ws, noEnv)
	require.NoError(t, err)
	assert.Equal(t, "tasks/WU-3.yaml", w.WUPath("WU-3"))
	assert.Equal(t, "wt/core-api-wu-3", w.WorktreePath("Core: API", "WU-3"))
	assert.Equal(t, "feat/core-api/wu-3", w.LaneBranch("Core: API", "WU-3"))
	assert.Equal(t, "docs/plans/WU-3-plan.md", w.PlanPath("WU-3"))

	writeFile(t, filepath.Join(ws, ConfigFile), "id: [unclosed\n")
	_, err = Open(context.Background(), ws, noEnv)
	assert.Equal(t, tool.CodeConfigInvalid, CodeOf(err))
}

func TestParseDuration(t *testing.T) {
	cases := map[string]time.Duration{"30s": 30 * time.Second, "10m": 10 * time.Minute, "24h": 24 * time.Hour, "7d": 7 * 24 * time.Hour, "2w": 14 * 24 * time.Hour,
		"15250w": 15250 * 7 * 24 * time.Hour} // the longest whole number of weeks a time.Duration holds
	for in, want := range cases {
		got, err := ParseDuration(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	// The last two are of the right form but too long for a time.Duration: they would wrap
	// or parse as zero, and mem:delete would then select every node.
	for _, bad := range []string{"", "m", "1.5h", "-1m", "10", "10ms", "15251w", "99999999999999999999d"} {
		_, err := ParseDuration(bad)
		assert.Error(t, err, bad)
	}
}
