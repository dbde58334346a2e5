package kernel_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
)

func loadConfig(t *testing.T, text string) (kernel.Config, error) {
	p := filepath.Join(t.TempDir(), "config.yaml")
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	fc, err := kernel.LoadFileConfig(p)
	if err != nil {
		return kernel.Config{}, err
	}
	var cfg kernel.Config
	return cfg, fc.Apply(&cfg)
}

func TestFileConfig(t *testing.T) {
	cfg, err := loadConfig(t, `
governance:
  disabled: [wu_delete]
policy:
  - {name: ro, read_only: true, decision: allow}
  - {name: rest, tool: "*", decision: ask, priority: -1}
approval_timeout: 2m
evidence: {dir: ev, checkpoint_every: 10, sync: buffered, witness: /elsewhere/witness.jsonl}
routes: {wu:status: shadow}
max_parallel: 3
max_stdin: 4096
`)
	require.NoError(t, err)
	assert.Nil(t, cfg.Governance.Allowed, "absent allowed = no allowlist")
	assert.Equal(t, []string{"wu_delete"}, cfg.Governance.Disabled)
	require.Len(t, cfg.Policy, 2)
	assert.Equal(t, kernel.Ask, cfg.Policy[1].Decision)
	assert.True(t, *cfg.Policy[0].ReadOnly)
	assert.Equal(t, 2*time.Minute, cfg.ApprovalTimeout)
	assert.Equal(t, evidence.SyncBuffered, cfg.Evidence.Sync)
	assert.Equal(t, 3, cfg.MaxParallel)
	assert.Equal(t, 4096, cfg.MaxStdin)
	assert.Equal(t, "/elsewhere/witness.jsonl", cfg.Evidence.Witness)

	cfg, err = loadConfig(t, "governance:\n  allowed: []\npolicy: []\n")
	require.NoError(t, err)
	assert.NotNil(t, cfg.Governance.Allowed, "explicit empty allowlist denies all")
	assert.Empty(t, cfg.Governance.Allowed)
	assert.NotNil(t, cfg.Policy, "explicit empty policy means no rules")

	cfg, err = loadConfig(t, "max_parallel: 2\n")
	require.NoError(t, err)
	assert.Nil(t, cfg.Policy, "absent policy keeps the default")

	for _, bad := range []string{"governance:\n  alowed: [x]\n", "approval_timeout: soon\n", "evidence: {sync: sometimes}\n", "max_stdin: -1\n"} {
		_, err := loadConfig(t, bad)
		assert.Error(t, err, bad)
	}
	fc, err := kernel.LoadFileConfig(filepath.Join(t.TempDir(), "missing.yaml"))
	require.NoError(t, err)
	assert.Nil(t, fc.Governance)
}

func TestFileConfigProfiles(t *testing.T) {
	cfg, err := loadConfig(t, `
profiles:
  review:
    description: read the work unit and the code, change nothing
    tools: [wu:status, "file:*"]
    read_only: true
    require: [wu:status]
  edit:
    description: write code
    tools: ["file:*"]
    destructive: false
`)
	require.NoError(t, err)
	require.Len(t, cfg.Profiles, 2)
	review := cfg.Profiles["review"]
	assert.Equal(t, "read the work unit and the code, change nothing", review.Description)
	assert.Equal(t, []string{"wu:status", "file:*"}, review.Tools)
	require.NotNil(t, review.ReadOnly)
	assert.True(t, *review.ReadOnly)
	assert.Nil(t, review.Destructive)
	assert.Equal(t, []string{"wu:status"}, review.Require)
	require.NotNil(t, cfg.Profiles["edit"].Destructive)
	assert.False(t, *cfg.Profiles["edit"].Destructive)
	assert.Equal(t, []string{"edit", "non-destructive", "read-only", "review"}, kernel.ProfileNames(cfg))

	cfg, err = loadConfig(t, "max_parallel: 2\n")
	require.NoError(t, err)
	assert.Nil(t, cfg.Profiles, "absent profiles: only the built-in ones")

	for _, bad := range []string{
		"profiles:\n  review:\n    description: x\n    tool: [a]\n",        // unknown key
		"profiles:\n  review:\n    tools: [wu:status]\n",                   // no description
		"profiles:\n  -bad:\n    description: x\n",                         // name
		"profiles:\n  'two words':\n    description: x\n",                  // name
		"profiles:\n  review:\n    description: x\n    read_only: maybe\n", // not a bool
	} {
		_, err := loadConfig(t, bad)
		assert.Error(t, err, bad)
	}
}

// TestRedTeamWorkspaceConfigCannotDeclareEffects: what a tool does is the program's
// declaration; a workspace config that declares effects (drop read-only, to escape
// approval and reach read-only tokens) is refused, however it is spelled, with a message
// naming what a workspace may do instead.
func TestRedTeamWorkspaceConfigCannotDeclareEffects(t *testing.T) {
	for _, text := range []string{
		"effects: {drop: {read_only: true}}\n",
		"policy: []\neffects:\n  '*': {read_only: true}\n",
		"effects: {}\n",
		"effects:\n",
	} {
		_, err := loadConfig(t, text)
		require.Error(t, err, text)
		assert.Contains(t, err.Error(), "effects are declared by the program", text)
		assert.Contains(t, err.Error(), "policy rule", text)
	}
}
