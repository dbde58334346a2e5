package state_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// assertRefused requires the schema's refusal: INVALID_INPUT from native.Tool.Call, before
// the handler runs, naming the place at fault (a JSON pointer, "/" for a rule between
// properties).
func assertRefused(t *testing.T, out tool.Output, path string) {
	t.Helper()
	require.Equal(t, tool.CodeInvalidInput, nativetest.Code(t, out), "%+v", out.Error)
	details, ok := out.Error.Details.(map[string]any)
	require.True(t, ok, "details: %#v", out.Error.Details)
	assert.Equal(t, path, details["path"])
}
