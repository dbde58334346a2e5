package wu_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// validWU is a wu:create input that passes the strict rules.
var validWU = map[string]any{
	"lane": "Core: API", "title": "Add health endpoint", "exposure": "api",
	"description": "Expose GET /healthz returning build info so the load balancer can probe.",
	"acceptance":  []string{"GET /healthz returns 200"}, "code_paths": []string{"internal/api/health.go"},
}

// input marshals a tool input, with extra keys overriding base's (nil deletes a key).
func input(t *testing.T, base map[string]any, extra map[string]any) string {
	t.Helper()
	m := map[string]any{}
	for k, v := range base {
		m[k] = v
	}
	for k, v := range extra {
		if v == nil {
			delete(m, k)
			continue
		}
		m[k] = v
	}
	b, err := json.Marshal(m)
	require.NoError(t, err)
	return string(b)
}

// create makes a ready WU through the native wu:create and returns its id.
func create(t *testing.T, ws string) string {
	t.Helper()
	d := nt.Data(t, nt.Call(t, ws, "wu:create", input(t, validWU, nil)))
	return d["id"].(string)
}

// claim claims id branch-only through the native wu:claim.
func claim(t *testing.T, ws, id string) {
	t.Helper()
	nt.Data(t, nt.Call(t, ws, "wu:claim", `{"id":"`+id+`","lane":"Core: API","branch_only":true}`))
}

// idFailures checks a tool whose one input is a required WU id: the schema refuses it
// missing, empty or malformed (the given example), even without a workspace; a call
// outside a workspace is NO_WORKSPACE, and an unknown WU is NOT_FOUND; none has data.
func idFailures(t *testing.T, name, malformed string) {
	cases := []struct {
		name, input string
		noWS        bool
		code, path  string
	}{
		{"missing id", `{}`, true, tool.CodeInvalidInput, "/id"},
		{"empty id", `{"id":""}`, false, tool.CodeInvalidInput, "/id"},
		{"malformed id", `{"id":"` + malformed + `"}`, false, tool.CodeInvalidInput, "/id"},
		{"no workspace", `{"id":"WU-1"}`, true, tool.CodeNoWorkspace, ""},
		{"unknown id", `{"id":"WU-9"}`, false, tool.CodeNotFound, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := nt.Workspace(t)
			if tc.noWS {
				dir = t.TempDir()
			}
			out := nt.Call(t, dir, name, tc.input)
			failedWith(t, out, tc.code, tc.path)
			assert.Nil(t, out.Data)
		})
	}
}

// failedWith requires out to fail with code; a refusal (INVALID_INPUT) must name path
// too (see nativetest.Refused).
func failedWith(t *testing.T, out tool.Output, code, path string) {
	t.Helper()
	if code == tool.CodeInvalidInput {
		nt.Refused(t, out, path)
		return
	}
	assert.Equal(t, code, nt.Code(t, out))
}

// refusal is an input the tool's schema refuses, at path (see nativetest.Refused).
type refusal struct{ name, input, path string }

// refusals calls tool name once per case, in a fresh workspace and in a directory that is
// none (the schema refuses before the workspace is looked for), and requires each
// case's refusal.
func refusals(t *testing.T, name string, cases []refusal) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			nt.Refused(t, nt.Call(t, nt.Workspace(t), name, tc.input), tc.path)
			nt.Refused(t, nt.Call(t, t.TempDir(), name, tc.input), tc.path)
		})
	}
}
