// Scaffolded by `cmdbridge scaffold wu:edit`: the native tool's contract with its legacy command.

package wu_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	_ "github.com/cmdbridge/cmdbridge/commands/wu"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// editWU is a ready WU in initiative INIT-1, with notes and a custom key.
const editWU = `id: WU-1
title: Add health endpoint
lane: 'Core: API'
status: ready
created: 2026-02-27
description: x
acceptance:
  - GET /healthz returns 200
code_paths:
  - internal/api/health.go
notes: First note
initiative: INIT-1
custom_key: kept # a comment
`

// TestEdit: lists append without duplicates, notes append on a new line, the initiative
// moves between files, changed lists the fields in flag order, one commit; the replace
// flags replace; an edit that changes nothing writes nothing; refusals write nothing.
func TestEdit(t *testing.T) {
	ws := nt.Workspace(t)
	nt.Write(t, ws, "docs/tasks/wu/WU-1.yaml", editWU)
	nt.Write(t, ws, "docs/tasks/initiatives/INIT-1.yaml", "id: INIT-1\nslug: alpha\ntitle: Alpha\nstatus: open\ncreated: 2026-02-27\nwus:\n  - WU-1\n")
	nt.Write(t, ws, "docs/tasks/initiatives/INIT-2.yaml", "id: INIT-2\nslug: beta\ntitle: Beta\nstatus: open\ncreated: 2026-02-27\n")
	nt.Write(t, ws, "docs/tasks/wu/WU-3.yaml", "id: WU-3\ntitle: Three\nlane: Ops\nstatus: in_progress\ncreated: 2026-02-27\ndescription: x\nacceptance: []\n")
	nt.Git(t, ws, "add", "-A")
	nt.Git(t, ws, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "fixtures")

	d := nt.Data(t, nt.Call(t, ws, "wu:edit", `{"id":"WU-1","phase":2,"initiative":"beta","priority":"P0",`+
		`"notes":"Second note","acceptance":["GET /healthz returns 200","Body has the version"],"title":"Add the health endpoint"}`))
	assert.Equal(t, map[string]any{"id": "WU-1", "changed": []any{"title", "acceptance", "notes", "priority", "initiative", "phase"},
		"commit": map[string]any{"sha": nt.Git(t, ws, "rev-parse", "HEAD"), "subject": "docs: edit wu-1 spec", "pushed": false}}, d)
	assert.Equal(t, `id: WU-1
title: Add the health endpoint
lane: 'Core: API'
status: ready
created: 2026-02-27
description: x
acceptance:
  - GET /healthz returns 200
  - Body has the version
code_paths:
  - internal/api/health.go
notes: |-
  First note
  Second note
initiative: beta
custom_key: kept # a comment
priority: P0
phase: 2
`, readFile(t, ws, "docs/tasks/wu/WU-1.yaml"))
	assert.Contains(t, readFile(t, ws, "docs/tasks/initiatives/INIT-1.yaml"), "wus: []")
	assert.Contains(t, readFile(t, ws, "docs/tasks/initiatives/INIT-2.yaml"), "wus:\n  - WU-1\n")
	assert.Empty(t, nt.Git(t, ws, "status", "--porcelain"))

	d = nt.Data(t, nt.Call(t, ws, "wu:edit", `{"id":"WU-1","code_paths":["a.go"],"replace_code_paths":true,"notes":"Only note","replace_notes":true,"blocked_by":["WU-2"]}`))
	assert.Equal(t, []any{"code_paths", "notes", "blocked_by"}, d["changed"])
	yaml := readFile(t, ws, "docs/tasks/wu/WU-1.yaml")
	assert.Contains(t, yaml, "code_paths:\n  - a.go\n")
	assert.Contains(t, yaml, "notes: Only note\n")

	head := nt.Git(t, ws, "rev-parse", "HEAD")
	d = nt.Data(t, nt.Call(t, ws, "wu:edit", `{"id":"WU-1","title":"Add the health endpoint","code_paths":["a.go"]}`))
	assert.Equal(t, map[string]any{"id": "WU-1", "changed": []any{}, "commit": nil}, d, "nothing changed")
	assert.Equal(t, head, nt.Git(t, ws, "rev-parse", "HEAD"))

	assert.Equal(t, tool.CodeValidation, nt.Code(t, nt.Call(t, ws, "wu:edit", `{"id":"WU-3","lane":"Other"}`)))
	assert.Equal(t, tool.CodeInvalidInput, nt.Code(t, nt.Call(t, ws, "wu:edit", `{"id":"WU-1","title":""}`)), "the schema refuses a given empty title")
	assert.Equal(t, tool.CodeNotFound, nt.Code(t, nt.Call(t, ws, "wu:edit", `{"id":"WU-1","initiative":"nope"}`)))
	assert.Equal(t, yaml, readFile(t, ws, "docs/tasks/wu/WU-1.yaml"))
	assert.Empty(t, nt.Git(t, ws, "status", "--porcelain"))
}

// TestEditFailures: the schema refuses malformed values, a missing id (INVALID_INPUT at
// the property) and nothing to edit (its rule, at "/") before the workspace is looked
// for; a done WU is INVALID_TRANSITION.
func TestEditFailures(t *testing.T) {
	cases := []struct {
		name, input string
		noWS        bool
		code, path  string
	}{
		{"nothing to edit", `{"id":"WU-1","replace_notes":true}`, true, tool.CodeInvalidInput, "/"},
		{"empty lists are not edits", `{"id":"WU-1","acceptance":[],"blocked_by":[]}`, false, tool.CodeInvalidInput, "/"},
		{"missing id", `{"title":"x"}`, true, tool.CodeInvalidInput, "/id"},
		{"malformed id", `{"id":"one","title":"x"}`, false, tool.CodeInvalidInput, "/id"},
		{"bad priority", `{"id":"WU-1","priority":"P9"}`, false, tool.CodeInvalidInput, "/priority"},
		{"empty type", `{"id":"WU-1","type":""}`, false, tool.CodeInvalidInput, "/type"},
		{"phase 0", `{"id":"WU-1","phase":0}`, false, tool.CodeInvalidInput, "/phase"},
		{"malformed blocked_by", `{"id":"WU-1","blocked_by":["two"]}`, false, tool.CodeInvalidInput, "/blocked_by/0"},
		{"no workspace", `{"id":"WU-1","title":"x"}`, true, tool.CodeNoWorkspace, ""},
		{"unknown WU", `{"id":"WU-9","title":"x"}`, false, tool.CodeNotFound, ""},
		{"done", `{"id":"WU-2","title":"x"}`, false, tool.CodeInvalidTransition, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := nt.Workspace(t)
			nt.Write(t, dir, "docs/tasks/wu/WU-2.yaml", "id: WU-2\ntitle: Two\nlane: Ops\nstatus: done\ncreated: 2026-02-27\ndescription: x\nacceptance: []\n")
			if tc.noWS {
				dir = t.TempDir()
			}
			failedWith(t, nt.Call(t, dir, "wu:edit", tc.input), tc.code, tc.path)
		})
	}
}
