// Scaffolded by `cmdbridge scaffold wu:infer-lane`: the native tool's contract with its legacy command.

package wu_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	_ "github.com/cmdbridge/cmdbridge/commands/wu"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// inferLanes defines an API lane (path pattern and keywords), a docs lane, and a lane
// without either.
const inferLanes = `id: acme
software_delivery:
  lanes:
    definitions:
      - name: 'Core: API'
        description: HTTP endpoint handlers
        code_paths:
          - internal/api/**
      - name: 'Content: Docs'
        description: docs site and guides
        code_paths:
          - docs/**
      - name: Ops
`

// TestInferLaneScores: 10 per matching pattern, 3 per keyword; ties go to the earlier
// definition; a WU's code_paths, title and description with id; nothing scored is null.
func TestInferLaneScores(t *testing.T) {
	root := nt.Workspace(t)
	nt.Write(t, root, "workspace.yaml", inferLanes)
	nt.Write(t, root, "docs/tasks/wu/WU-1.yaml",
		"id: WU-1\ntitle: Docs for the API guide\nlane: Ops\ncreated: 2026-03-01\ndescription: ''\nacceptance: []\ncode_paths:\n  - docs/guide.md\n")
	cases := []struct {
		name, input string
		lane        any
		confidence  float64
		candidates  int
	}{
		{"path and keyword", `{"paths":["internal/API/health.go"],"desc":"add an endpoint"}`, "Core: API", 13, 1},
		{"tie keeps definition order", `{"paths":["./docs/a.md","internal/api/x.go"]}`, "Core: API", 10, 2},
		{"keywords only", `{"desc":"Write the docs site guide"}`, "Content: Docs", 6, 1},
		{"from a WU", `{"id":"WU-1"}`, "Content: Docs", 13, 2},
		{"nothing matches", `{"desc":"zz"}`, nil, 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data := nt.Data(t, nt.Call(t, root, "wu:infer-lane", tc.input))
			assert.Equal(t, tc.lane, data["lane"])
			assert.Equal(t, tc.confidence, data["confidence"])
			assert.Len(t, data["candidates"], tc.candidates)
		})
	}
}

// TestInferLaneFailures: the schema refuses what breaks the command's rules (at "/") and
// an empty id (at "/id") before the workspace is opened; an unknown WU and a workspace
// without lane definitions are NOT_FOUND.
func TestInferLaneFailures(t *testing.T) {
	root := nt.Workspace(t)
	bare := nt.Workspace(t)
	nt.Write(t, bare, "workspace.yaml", "id: acme\n")
	cases := []struct {
		name, dir, input, code, path string
	}{
		{"none given", root, `{}`, tool.CodeInvalidInput, "/"},
		{"empty paths", root, `{"paths":[]}`, tool.CodeInvalidInput, "/"},
		{"id with desc", root, `{"id":"WU-1","desc":"x"}`, tool.CodeInvalidInput, "/"},
		{"id with paths", root, `{"id":"WU-1","paths":["a"]}`, tool.CodeInvalidInput, "/"},
		{"empty id", root, `{"id":""}`, tool.CodeInvalidInput, "/id"},
		{"none given outside a workspace", t.TempDir(), `{}`, tool.CodeInvalidInput, "/"},
		{"unknown WU", root, `{"id":"WU-9"}`, tool.CodeNotFound, ""},
		{"no lanes", bare, `{"desc":"api"}`, tool.CodeNotFound, ""},
		{"no workspace", t.TempDir(), `{"desc":"api"}`, tool.CodeNoWorkspace, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := nt.Call(t, tc.dir, "wu:infer-lane", tc.input)
			if tc.code == tool.CodeInvalidInput {
				nt.Refused(t, out, tc.path)
				return
			}
			assert.Equal(t, tc.code, nt.Code(t, out))
			assert.Contains(t, out.Metadata, "warnings")
		})
	}
}
