package wu_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
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
