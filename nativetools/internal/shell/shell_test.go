package shell

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/tool"
)

func TestProblemsListsEveryViolation(t *testing.T) {
	var p Problems
	p.Require("lane", "")
	p.Require("owner", "ada")
	p.Require("wu_id", "")
	p.Check(false, "stale_after_ms must not be negative")
	p.Check(true, "never recorded")
	fail := p.Fail("lane-lock:acquire")
	require.NotNil(t, fail)
	require.NotNil(t, fail.Error)
	assert.Equal(t, tool.CodeValidation, fail.Error.Code)
	assert.Equal(t, map[string]any{"errors": []string{"lane must not be empty", "wu_id must not be empty",
		"stale_after_ms must not be negative"}}, fail.Error.Details)
	assert.Equal(t, "lane-lock:acquire: lane must not be empty; wu_id must not be empty; stale_after_ms must not be negative",
		fail.Error.Message)

	var none Problems
	none.Require("lane", "x")
	assert.Nil(t, none.Fail("t"))
}

func TestOpenWorkspaceFailsOutsideAWorkspace(t *testing.T) {
	env := &tool.Env{Dir: t.TempDir(), LookupEnv: tool.EnvFromMap(nil)}
	_, _, fail := OpenWorkspace(t.Context(), env)
	require.NotNil(t, fail)
	assert.Equal(t, tool.CodeNoWorkspace, fail.Error.Code)

	env.LookupEnv = tool.EnvFromMap(map[string]string{"DELIVERY_NOW": "yesterday"})
	_, _, fail = OpenWorkspace(t.Context(), env)
	require.NotNil(t, fail)
	assert.Equal(t, tool.CodeUsage, fail.Error.Code)
}
