// Scaffolded by `cmdbridge scaffold wu:brief`: the native tool's contract with its legacy command.

package wu_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/wu"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// briefWU is a WU with an acceptance map, tests and notes.
const briefWU = `id: WU-1
title: Add health endpoint
lane: 'Core: API'
status: in_progress
priority: P1
created: 2026-03-01
description: Expose GET /healthz.
acceptance:
  api:
    - GET /healthz returns 200
code_paths:
  - internal/api/health.go
tests:
  unit:
    - internal/api/health_test.go
notes: Keep it cheap.
`

// TestBriefRendersThePromptAndRecordsIt: the prompt's sections in order, its hash and
// length, and one checkpoint event appended with the client; nothing is committed.
func TestBriefRendersThePromptAndRecordsIt(t *testing.T) {
	root := nt.Workspace(t)
	nt.Write(t, root, "docs/tasks/wu/WU-1.yaml", briefWU)
	nt.Write(t, root, ".lumenflow/constraints.md", "Never push to main directly.\n")
	nt.Write(t, root, ".lumenflow/memory/memory.jsonl",
		`{"id":"mem-0001","type":"discovery","lifecycle":"wu","content":"Health must not hit DB","created_at":"2026-02-03T10:00:00.000Z","wu_id":"WU-1"}`+"\n")

	data := nt.Data(t, nt.Call(t, root, "wu:brief", `{"id":"WU-1","client":"codex"}`))
	prompt, ok := data["prompt"].(string)
	require.True(t, ok, "prompt is a string: %#v", data["prompt"])
	var last int
	for _, section := range []string{"# WU-1: Add health endpoint\n", "- Priority: P1\n", "### api\n",
		"- internal/api/health.go\n", "- unit: internal/api/health_test.go\n", "## Notes\n\nKeep it cheap.\n",
		"## Constraints\n\nNever push to main directly.\n", "- [discovery] Health must not hit DB\n",
		"1. Run `delivery wu:prep --id WU-1`"} {
		at := strings.Index(prompt, section)
		require.GreaterOrEqual(t, at, last, "section %q in order", section)
		last = at
	}
	sum := sha256.Sum256([]byte(prompt))
	assert.Equal(t, hex.EncodeToString(sum[:]), data["prompt_sha256"])
	assert.Equal(t, float64(len(prompt)), data["prompt_length"])
	assert.Equal(t, "codex", data["client"])

	events, err := os.ReadFile(filepath.Join(root, ".lumenflow/state/wu-events.jsonl"))
	require.NoError(t, err)
	assert.Contains(t, string(events), `"note":"[wu:brief] generated via codex"`)
	assert.Equal(t, "1", nt.Git(t, root, "rev-list", "--count", "HEAD"), "nothing committed")
}

// TestBriefEvidenceOnly: no prompt in the data, but its hash and length; the event note
// says evidence, and --no-context leaves the memory out of the hashed prompt.
func TestBriefEvidenceOnly(t *testing.T) {
	root := nt.Workspace(t)
	nt.Write(t, root, "docs/tasks/wu/WU-1.yaml", briefWU)
	data := nt.Data(t, nt.Call(t, root, "wu:brief", `{"id":"WU-1","evidence_only":true,"no_context":true}`))
	assert.Nil(t, data["prompt"])
	assert.Equal(t, true, data["evidence_only"])
	assert.Len(t, data["prompt_sha256"], 64)
	assert.Greater(t, data["prompt_length"], 0.0)
	events, err := os.ReadFile(filepath.Join(root, ".lumenflow/state/wu-events.jsonl"))
	require.NoError(t, err)
	assert.Contains(t, string(events), `"note":"[wu:brief] evidence recorded via claude-code"`)
}

// TestBriefFailures: the schema refuses a missing or malformed id, in a workspace or
// not; an unknown WU is NOT_FOUND; no failure appends an event.
func TestBriefFailures(t *testing.T) {
	root := nt.Workspace(t)
	cases := []struct {
		name, dir, input, code, path string
	}{
		{"missing id", root, `{}`, tool.CodeInvalidInput, "/id"},
		{"malformed id", root, `{"id":"WU-"}`, tool.CodeInvalidInput, "/id"},
		{"missing id outside a workspace", t.TempDir(), `{}`, tool.CodeInvalidInput, "/id"},
		{"unknown WU", root, `{"id":"WU-9"}`, tool.CodeNotFound, ""},
		{"no workspace", t.TempDir(), `{"id":"WU-1"}`, tool.CodeNoWorkspace, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := nt.Call(t, tc.dir, "wu:brief", tc.input)
			if tc.code == tool.CodeInvalidInput {
				nt.Refused(t, out, tc.path)
				return
			}
			assert.Equal(t, tc.code, nt.Code(t, out))
			assert.Contains(t, out.Metadata, "warnings")
		})
	}
	assert.NoFileExists(t, filepath.Join(root, ".lumenflow/state/wu-events.jsonl"))
}
