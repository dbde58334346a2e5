package ops

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

func TestWUCreate(t *testing.T) {
	cases := []struct {
		name string
		in   WUCreateInput
		code string
	}{
		{"undefined lane", WUCreateInput{Lane: "Nope", Title: "x"}, tool.CodeValidation},
		{"phase without initiative", WUCreateInput{Lane: "Docs", Title: "x", Phase: 2}, tool.CodeUsage},
		{"strict rules", WUCreateInput{Lane: "Docs", Title: "x", Description: "short"}, tool.CodeValidation},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			_, _, err := WUCreate(t.Context(), f.ws, f.rt, tc.in)
			requireCode(t, tc.code, err)
			assert.NoFileExists(t, f.ws.Abs(f.ws.WUPath("WU-1")), "nothing is written when a check fails")
		})
	}
	t.Run("success", func(t *testing.T) {
		f := newFixture(t)
		data, notes, err := WUCreate(t.Context(), f.ws, f.rt, WUCreateInput{Lane: "Docs", Title: "Write the guide",
			Description: testDescription, BlockedBy: []string{"WU-9"}, NoStrict: true})
		require.NoError(t, err)
		assert.Equal(t, WUCreateData{ID: "WU-1", Path: "docs/tasks/wu/WU-1.yaml", Lane: "Docs", Type: "feature",
			Priority: "P2", Status: delivery.StatusReady}, data, "workspace defaults, no commit outside git")
		assert.Equal(t, "Created WU-1: Write the guide", notes.Headline)
		assert.Equal(t, []string{"blocked_by WU-9 does not exist"}, notes.Warnings)
		assert.Contains(t, f.read(delivery.EventsFile), `"type":"create"`)
		_, _, err = WUCreate(t.Context(), f.ws, f.rt, WUCreateInput{ID: "WU-1", Lane: "Docs", Title: "again"})
		requireCode(t, tool.CodeAlreadyExists, err)
	})
}

func TestWUClaim(t *testing.T) {
	f := newFixture(t)
	id := f.create("Core: API")
	_, _, err := WUClaim(t.Context(), f.ws, f.rt, WUClaimInput{ID: id, Lane: "Docs"})
	requireCode(t, tool.CodeValidation, err)

	data, notes, err := WUClaim(t.Context(), f.ws, f.rt, WUClaimInput{ID: id, Lane: "Core: API"})
	require.NoError(t, err)
	assert.Equal(t, "in_progress", data.Status)
	assert.Equal(t, "branch-only", data.ClaimedMode)
	assert.Nil(t, data.WorktreePath)
	require.NotNil(t, data.LockPath, "lock_policy active takes the lock")
	assert.NotEmpty(t, data.SessionID)
	assert.Equal(t, "Claimed "+id+" (Core: API)", notes.Headline)
	assert.Equal(t, []string{". is not a git repository: claiming in branch-only mode"}, notes.Warnings)

	_, _, err = WUClaim(t.Context(), f.ws, f.rt, WUClaimInput{ID: id, Lane: "Core: API"})
	requireCode(t, tool.CodeInvalidTransition, err)
	other := f.create("Core: API")
	_, _, err = WUClaim(t.Context(), f.ws, f.rt, WUClaimInput{ID: other, Lane: "Core: API"})
	requireCode(t, tool.CodeLaneBusy, err)
}

func TestWUBlockAndUnblock(t *testing.T) {
	f := newFixture(t)
	ready := f.create("Docs")
	_, _, err := WUBlock(t.Context(), f.ws, f.rt, WUBlockInput{ID: ready, Reason: "  "})
	requireCode(t, tool.CodeUsage, err)
	_, _, err = WUBlock(t.Context(), f.ws, f.rt, WUBlockInput{ID: ready, Reason: "waiting"})
	requireCode(t, tool.CodeInvalidTransition, err)
	_, _, err = WUUnblock(t.Context(), f.ws, f.rt, WUUnblockInput{ID: ready})
	requireCode(t, tool.CodeInvalidTransition, err)

	id := f.claim("Core: API")
	blocked, notes, err := WUBlock(t.Context(), f.ws, f.rt, WUBlockInput{ID: id, Reason: "waiting on infra", RemoveWorktree: true})
	require.NoError(t, err)
	assert.Equal(t, WUBlockData{ID: id, Status: "blocked", Reason: "waiting on infra", LockReleased: true}, blocked)
	assert.Equal(t, "Blocked "+id+": waiting on infra", notes.Headline)
	yaml := f.read(f.ws.WUPath(id))
	assert.Contains(t, yaml, "blocked_reason: waiting on infra")
	assert.Contains(t, yaml, "[2026-03-02] Blocked: waiting on infra")

	unblocked, notes, err := WUUnblock(t.Context(), f.ws, f.rt, WUUnblockInput{ID: id, Reason: "infra is up"})
	require.NoError(t, err)
	assert.Equal(t, WUUnblockData{ID: id, Status: "in_progress", LockAcquired: true}, unblocked)
	assert.Equal(t, "Unblocked "+id, notes.Headline)
	yaml = f.read(f.ws.WUPath(id))
	assert.NotContains(t, yaml, "blocked_reason")
	assert.Contains(t, yaml, "Unblocked: infra is up")
}

func TestWUStatus(t *testing.T) {
	f := newFixture(t)
	_, _, err := WUStatus(t.Context(), f.ws, f.rt, WUStatusInput{})
	requireCode(t, tool.CodeNotFound, err)
	_, _, err = WUStatus(t.Context(), f.ws, f.rt, WUStatusInput{ID: "WU-404"})
	requireCode(t, tool.CodeNotFound, err)

	dep := f.claim("Core: API")
	id := f.create("Docs", dep, "WU-77")
	data, notes, err := WUStatus(t.Context(), f.ws, f.rt, WUStatusInput{ID: id})
	require.NoError(t, err)
	assert.Equal(t, []StatusDep{{dep, "in_progress"}, {"WU-77", "missing"}}, data.BlockedBy)
	assert.True(t, data.Consistent)
	assert.Nil(t, data.Inconsistency)
	assert.Equal(t, StatusLocation{Type: "main"}, data.Location)
	assert.Equal(t, id+": Add health endpoint", notes.Headline)
	assert.Equal(t, "  blocked_by: "+dep+" (in_progress), WU-77 (missing)\n", notes.Text)

	claimed, _, err := WUStatus(t.Context(), f.ws, f.rt, WUStatusInput{ID: dep})
	require.NoError(t, err)
	require.NotNil(t, claimed.Lock)
	assert.Equal(t, dep, claimed.Lock.WUID)
	assert.Empty(t, claimed.BlockedBy)

	// A torn event line is a warning, never a failure.
	f.write(delivery.EventsFile, f.read(delivery.EventsFile)+"{broken\n")
	_, notes, err = WUStatus(t.Context(), f.ws, f.rt, WUStatusInput{ID: dep})
	require.NoError(t, err)
	require.Len(t, notes.Warnings, 1)
	assert.Contains(t, notes.Warnings[0], "invalid JSON")
}
