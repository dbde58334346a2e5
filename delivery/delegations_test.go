package delivery

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDelegationRegistryLastLineWins(t *testing.T) {
	root := t.TempDir()
	reg, err := ReadDelegations(root)
	require.NoError(t, err)
	assert.Empty(t, reg.Records)

	done := "2026-03-01T11:00:00.000Z"
	require.NoError(t, AppendDelegations(root,
		Delegation{ID: "dlg-b", ParentWUID: "WU-1", TargetWUID: "WU-2", Lane: "A", Intent: IntentDelegation, DelegatedAt: "2026-03-01T10:00:00.000Z", Status: DelegationPending},
		Delegation{ID: "dlg-a", ParentWUID: "WU-1", TargetWUID: "WU-3", Lane: "A", Intent: IntentDelegation, DelegatedAt: "2026-03-01T09:00:00.000Z", Status: DelegationPending}))
	require.NoError(t, AppendDelegations(root,
		Delegation{ID: "dlg-b", ParentWUID: "WU-1", TargetWUID: "WU-2", Lane: "A", Intent: IntentDelegation, DelegatedAt: "2026-03-01T10:00:00.000Z", Status: DelegationCompleted, CompletedAt: &done}))
	f, err := os.OpenFile(filepath.Join(root, DelegationFile), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("{\"id\":\"dlg-c\"}\nnot json\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())

	reg, err = ReadDelegations(root)
	require.NoError(t, err)
	require.Len(t, reg.Records, 2)
	assert.Equal(t, "dlg-b", reg.Records[0].ID)
	assert.Equal(t, DelegationCompleted, reg.Records[0].Status)
	assert.Equal(t, &done, reg.Records[0].CompletedAt)
	assert.True(t, reg.Has("dlg-a"))
	assert.False(t, reg.Has("dlg-c"))
	require.Len(t, reg.Warnings(), 2)
	assert.Equal(t, "delegation-registry.jsonl line 4: delegation record needs parentWuId and targetWuId", reg.Warnings()[0])

	SortByDelegatedAt(reg.Records)
	assert.Equal(t, "dlg-a", reg.Records[0].ID)

	raw, err := os.ReadFile(filepath.Join(root, DelegationFile))
	require.NoError(t, err)
	assert.Contains(t, string(raw), `{"id":"dlg-a","parentWuId":"WU-1","targetWuId":"WU-3","lane":"A","intent":"delegation","delegatedAt":"2026-03-01T09:00:00.000Z","status":"pending","completedAt":null}`+"\n")
}
