package native_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

func TestPlainTextIsTheStreams(t *testing.T) {
	p := native.Plain{Name: "notes:list"}
	fmt.Fprintln(&p.Stdout, "alpha")
	fmt.Fprint(&p.Stderr, "note: one skipped\n")
	out := p.Exit(0)
	require.True(t, out.Success)
	b, err := json.Marshal(out.Data)
	require.NoError(t, err)
	assert.JSONEq(t, `{"stdout":"alpha\n","stderr":"note: one skipped\n","exit_code":0}`, string(b))
}

func TestPlainJSONDocumentKeepsItsBytes(t *testing.T) {
	p := native.Plain{Name: "notes:show"}
	fmt.Fprint(&p.Stdout, "{\n  \"title\": \"a\"\n}\n")
	out := p.Exit(0)
	require.True(t, out.Success)
	assert.Equal(t, json.RawMessage("{\n  \"title\": \"a\"\n}"), out.Data, "the parsed document is the data")
	assert.Equal(t, "{\n  \"title\": \"a\"\n}\n", out.Metadata[tool.MetaStdout], "the exact bytes beside it")
	assert.Equal(t, "", out.Metadata[tool.MetaStderr])
}

func TestPlainNonZeroExitFails(t *testing.T) {
	p := native.Plain{Name: "notes:show"}
	fmt.Fprintln(&p.Stderr, "no note x")
	out := p.Exit(4)
	require.False(t, out.Success)
	assert.Equal(t, tool.CodeCommandFailed, out.Error.Code)
	assert.Equal(t, "notes:show exited with code 4: no note x", out.Error.Message)
	b, err := json.Marshal(out.Error.Details)
	require.NoError(t, err)
	assert.JSONEq(t, `{"stdout":"","stderr":"no note x\n","exit_code":4}`, string(b))
}
