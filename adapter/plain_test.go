package adapter_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// TestPlainJSONDocumentKeepsItsBytes: a plain command's stdout that is one JSON
// document is the parsed data, and its exact bytes (indentation, trailing newline) are
// kept in metadata beside it, with the whole stderr.
func TestPlainJSONDocumentKeepsItsBytes(t *testing.T) {
	stdout := "{\n  \"title\":   \"alpha\",\n  \"tags\": []\n}\n"
	out := adapter.ToOutput(adapter.Result{Command: "notes:show", Output: legacy.OutputPlain,
		Lane: adapter.LaneSubprocess, Stdout: []byte(stdout), Stderr: []byte("warning: old format\n")})
	require.True(t, out.Success)
	b, err := json.Marshal(out.Data)
	require.NoError(t, err)
	assert.JSONEq(t, stdout, string(b))
	assert.Equal(t, stdout, out.Metadata[tool.MetaStdout])
	assert.Equal(t, "warning: old format\n", out.Metadata[tool.MetaStderr])
	assert.Equal(t, adapter.LaneSubprocess, out.Metadata["lane"], "the lane facts stay")

	text := adapter.ToOutput(adapter.Result{Command: "notes:list", Output: legacy.OutputPlain, Stdout: []byte("alpha\n")})
	assert.NotContains(t, text.Metadata, tool.MetaStdout, "plain text is in data already")
}
