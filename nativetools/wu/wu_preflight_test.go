// Scaffolded by `cmdbridge scaffold wu:preflight`: the native tool's contract with its legacy command.

package wu_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/wu"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// preflightWU has a code path, a glob and a unit test, and prose manual tests.
const preflightWU = `id: WU-1
title: Add health endpoint
lane: 'Core: API'
created: 2026-02-27
description: x
acceptance: []
code_paths:
  - internal/api/health.go
  - INTERNAL/**/*_test.go
tests:
  unit:
    - internal/api/health_test.go
  manual:
    - curl it
`

// TestPreflightChecksPaths: every path present is ok; a missing file, a glob that matches
// nothing and a missing test are CHECK_FAILED with the report as data; worktree moves the
// base directory (relative to the call's directory); a structural error is reported.
func TestPreflightChecksPaths(t *testing.T) {
	ws := nt.Workspace(t)
	nt.Write(t, ws, "docs/tasks/wu/WU-1.yaml", preflightWU)
	nt.Write(t, ws, "docs/tasks/wu/WU-2.yaml", "id: WU-2\nlane: 'Core: API'\ncreated: 2026-02-27\ndescription: x\nacceptance: []\n")

	out := nt.Call(t, ws, "wu:preflight", `{"id":"WU-1"}`)
	assert.Equal(t, tool.CodeCheckFailed, nt.Code(t, out))
	assert.Equal(t, "preflight of WU-1 failed: 3 missing path(s), 0 error(s)", out.Error.Message)
	report, ok := out.Data.(map[string]any)
	require.True(t, ok, "the report comes with the failure: %#v", out.Data)
	assert.Equal(t, map[string]any{"id": "WU-1", "base_dir": ".", "ok": false,
		"missing_code_paths": []any{"internal/api/health.go", "INTERNAL/**/*_test.go"},
		"missing_test_paths": []any{"internal/api/health_test.go"}, "errors": []any{}}, report)

	nt.Write(t, ws, "internal/api/health.go", "package api\n")
	nt.Write(t, ws, "internal/api/Health_test.go", "package api\n")
	out = nt.Call(t, ws, "wu:preflight", `{"id":"WU-1"}`)
	assert.Equal(t, tool.CodeCheckFailed, nt.Code(t, out), "the glob matches case-insensitively, a plain path does not")
	report = out.Data.(map[string]any)
	assert.Equal(t, []any{}, report["missing_code_paths"])
	assert.Equal(t, []any{"internal/api/health_test.go"}, report["missing_test_paths"])

	nt.Write(t, ws, "sub/internal/api/health.go", "package api\n")
	nt.Write(t, ws, "sub/internal/api/health_test.go", "package api\n")
	data := nt.Data(t, nt.Call(t, ws, "wu:preflight", `{"id":"WU-1","worktree":"sub"}`))
	assert.Equal(t, map[string]any{"id": "WU-1", "base_dir": "sub", "ok": true, "missing_code_paths": []any{},
		"missing_test_paths": []any{}, "errors": []any{}}, data)
	data = nt.Data(t, nt.Call(t, filepath.Join(ws, "sub"), "wu:preflight", `{"id":"WU-1","worktree":"."}`))
	assert.Equal(t, "sub", data["base_dir"], "a relative worktree is taken from the call's directory")

	out = nt.Call(t, ws, "wu:preflight", `{"id":"WU-2"}`)
	assert.Equal(t, tool.CodeCheckFailed, nt.Code(t, out))
	assert.Equal(t, []any{"title is required"}, out.Data.(map[string]any)["errors"])
}

// TestPreflightFailures: the schema refuses a missing or malformed id, even without a
// workspace; an unknown WU is NOT_FOUND without data.
func TestPreflightFailures(t *testing.T) { idFailures(t, "wu:preflight", `WU-x`) }
