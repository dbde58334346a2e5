package tool_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/tool"
)

// TestRefusalIsAnErrorAndAnOutput: a refusal travels as an error (wrapped, it is still
// found with errors.As, code and details intact) and becomes the failed Output a
// surface answers with, the same as Fail builds.
func TestRefusalIsAnErrorAndAnOutput(t *testing.T) {
	refused := tool.RefuseDetails(tool.CodeInvalidInput, map[string]any{"meta": "k"}, "_meta %q must be a string", "k")
	var err error = fmt.Errorf("call: %w", refused)
	var got *tool.Error
	require.True(t, errors.As(err, &got))
	assert.Equal(t, tool.CodeInvalidInput, got.Code)
	assert.Equal(t, `INVALID_INPUT: _meta "k" must be a string`, got.Error())
	out := got.Output()
	assert.False(t, out.Success)
	assert.Same(t, refused, out.Error)
	assert.Equal(t, tool.FailDetails(tool.CodeInvalidInput, map[string]any{"meta": "k"}, "_meta %q must be a string", "k"), out)
}
