package ops

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/tool"
)

func TestInitiativeStatus(t *testing.T) {
	f := newFixture(t)
	_, _, err := InitiativeStatus(t.Context(), f.ws, InitiativeStatusInput{})
	requireCode(t, tool.CodeUsage, err)
	_, _, err = InitiativeStatus(t.Context(), f.ws, InitiativeStatusInput{Ref: "INIT-404"})
	requireCode(t, tool.CodeNotFound, err)

	f.write("docs/tasks/initiatives/INIT-1.yaml", `id: INIT-1
slug: public-api
title: Public API v1
status: open
phases:
  - id: 1
    title: Foundations
    status: in_progress
wus:
  - WU-1
  - WU-2
`)
	f.create("Docs")
	f.write("docs/tasks/wu/WU-2.yaml", "id: WU-2\ntitle: Phased\nlane: Docs\nstatus: done\nphase: 1\n")
	f.write("docs/tasks/wu/WU-3.yaml", ": not yaml [")
	data, notes, err := InitiativeStatus(t.Context(), f.ws, InitiativeStatusInput{Ref: "public-api"})
	require.NoError(t, err)
	assert.Equal(t, "INIT-1", data.ID)
	assert.Equal(t, "P2", data.Priority, "the default priority")
	assert.Equal(t, InitiativeProgress{Percentage: 50, Done: 1, Ready: 1, Total: 2}, data.Progress)
	assert.Equal(t, []InitiativePhase{{ID: 1, Title: "Foundations", Status: "in_progress", WUs: []string{"WU-2"}}}, data.Phases)
	require.Len(t, data.WUs, 2)
	assert.Nil(t, data.WUs[0].Phase)
	assert.Equal(t, []string{}, data.Labels)
	assert.Nil(t, data.Owner)
	require.Len(t, notes.Warnings, 1, "the unparsable WU is a warning")
	assert.Contains(t, notes.Warnings[0], "WU-3")
	assert.Equal(t, "INIT-1 Public API v1 ["+data.Status+"]\n  progress: 50% (1/2)\nPhase 1: Foundations [in_progress]\n"+
		"  - WU-2 done Phased\nUnphased\n  - WU-1 ready Add health endpoint\n", notes.Text)
}
