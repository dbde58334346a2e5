package delivery

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/tool"
)

func wuWith(t *testing.T, id, status, initiative string) *WU {
	t.Helper()
	w, err := ParseWU("x", []byte("id: "+id+"\nstatus: "+status+"\ninitiative: '"+initiative+"'\n"))
	require.NoError(t, err)
	return w
}

func TestInitiativesResolveAllocateDerive(t *testing.T) {
	ws := newWorkspace(t)
	writeFile(t, ws.Abs("docs/tasks/initiatives/INIT-048.yaml"), "id: INIT-048\nslug: public-api\ntitle: Public API\nstatus: open\nwus: [WU-3, WU-9]\nphases:\n  - id: 1\n    title: P1\n    status: pending\n")
	writeFile(t, ws.Abs("docs/tasks/initiatives/INIT-2.yaml"), "id: INIT-2\nslug: other\ntitle: Other\n")
	writeFile(t, ws.Abs("docs/tasks/initiatives/INIT-ABC.yaml"), "id: INIT-ABC\nslug: INIT-2\ntitle: Tricky slug\n")

	id, err := NextInitiativeID(ws)
	require.NoError(t, err)
	assert.Equal(t, "INIT-49", id)

	all, err := ListInitiatives(ws)
	require.NoError(t, err)
	require.Len(t, all, 3)
	assert.Equal(t, []string{"INIT-2", "INIT-048", "INIT-ABC"}, []string{all[0].ID, all[1].ID, all[2].ID})
	assert.Equal(t, "draft", all[0].Status, "default status")
	assert.Equal(t, []Phase{{ID: 1, Title: "P1", Status: "pending"}}, all[1].Phases)

	in, err := ResolveInitiative(ws, "INIT-2")
	require.NoError(t, err)
	assert.Equal(t, "Other", in.Title, "id wins over slug")
	in, err = ResolveInitiative(ws, "public-api")
	require.NoError(t, err)
	assert.Equal(t, "INIT-048", in.ID)
	_, err = ResolveInitiative(ws, "nope")
	assert.Equal(t, tool.CodeNotFound, CodeOf(err))

	wus := []*WU{wuWith(t, "WU-10", "done", "public-api"), wuWith(t, "WU-3", "done", ""), wuWith(t, "WU-4", "ready", "INIT-2")}
	got, missing := InitiativeWUs(in, wus)
	assert.Equal(t, []string{"WU-9"}, missing)
	require.Len(t, got, 2)
	assert.Equal(t, "WU-3", got[0].ID)
	assert.Equal(t, "WU-10", got[1].ID)

	cases := []struct {
		name     string
		statuses []string
		want     string
	}{
		{"no wus keeps yaml", nil, "open"},
		{"all done", []string{"done", "completed"}, "done"},
		{"blocked is active", []string{"done", "blocked"}, "in_progress"},
		{"ready keeps yaml", []string{"done", "ready"}, "open"},
	}
	for _, tc := range cases {
		var ws []*WU
		for i, s := range tc.statuses {
			ws = append(ws, wuWith(t, "WU-"+string(rune('1'+i)), s, ""))
		}
		assert.Equal(t, tc.want, DerivedStatus(in, ws), tc.name)
	}
}
