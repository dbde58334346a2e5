// Scaffolded by `cmdbridge scaffold wu:validate`: the native tool's contract with its legacy command.

package wu_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/wu"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// healthWU is a spec that passes the strict rules, with a lane the workspace does not
// define and a blocked_by id without a spec file (two warnings).
const healthWU = `id: WU-1
title: Add health endpoint
lane: 'Core: Web'
type: feature
created: 2026-02-27
description: Expose GET /healthz returning build info so the load balancer can probe.
acceptance:
  - GET /healthz returns 200
code_paths:
  - internal/api/health.go
exposure: api
blocked_by:
  - WU-8
`

// thinWU passes the structural checks but not the strict ones.
const thinWU = `id: WU-2
title: Thin
lane: 'Core: API'
created: 2026-02-27
description: '[PLACEHOLDER] fill me in later, when we know what this unit delivers.'
acceptance: []
code_paths:
  - x.go
exposure: api
`

// TestValidateReportsErrorsAndWarnings: a valid WU with its warnings; an invalid one is
// CHECK_FAILED with the report as data; no_strict checks the structure only.
func TestValidateReportsErrorsAndWarnings(t *testing.T) {
	ws := nt.Workspace(t)
	nt.Write(t, ws, "docs/tasks/wu/WU-1.yaml", healthWU)
	nt.Write(t, ws, "docs/tasks/wu/WU-2.yaml", thinWU)

	data := nt.Data(t, nt.Call(t, ws, "wu:validate", `{"id":"WU-1"}`))
	assert.Equal(t, map[string]any{"id": "WU-1", "valid": true, "strict": true, "errors": []any{},
		"warnings": []any{`lane "Core: Web" is not defined in workspace.yaml`, "blocked_by WU-8 does not exist"}}, data)

	out := nt.Call(t, ws, "wu:validate", `{"id":"WU-2"}`)
	assert.Equal(t, tool.CodeCheckFailed, nt.Code(t, out))
	report, ok := out.Data.(map[string]any)
	require.True(t, ok, "the report comes with the failure: %#v", out.Data)
	assert.Equal(t, false, report["valid"])
	assert.Len(t, report["errors"], 2)
	assert.Equal(t, "WU-2 is invalid (2 error(s))", out.Error.Message)

	data = nt.Data(t, nt.Call(t, ws, "wu:validate", `{"id":"WU-2","no_strict":true}`))
	assert.Equal(t, false, data["strict"])
	assert.Equal(t, true, data["valid"])
}

// TestValidateFailures: the schema refuses a missing or malformed id, even without a
// workspace; an unknown WU is NOT_FOUND without data.
func TestValidateFailures(t *testing.T) { idFailures(t, "wu:validate", `WU-`) }
