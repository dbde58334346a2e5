package shell

import (
	"testing"
	"time"

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

type fixedIDs string

func (f fixedIDs) Hex(kind string, n int) string { return (kind + "-" + string(f))[:n] }

// The runtime is built once per call from tool.Env: its clock and its ids are the host's
// (Env.Now, Env.IDs), not DELIVERY_NOW and DELIVERY_SEED read again; the environment is
// still validated, and a call without them keeps the runtime's own.
func TestStartTakesClockAndIDsFromTheEnv(t *testing.T) {
	host := time.Date(2030, 1, 2, 3, 4, 5, 0, time.FixedZone("X", 3600))
	env := &tool.Env{Dir: t.TempDir(), Now: func() time.Time { return host }, IDs: fixedIDs("0123456789"),
		LookupEnv: tool.EnvFromMap(map[string]string{"DELIVERY_NOW": "2026-03-01T10:00:00.000Z", "DELIVERY_SEED": "s"})}
	c, fail := Start(env)
	require.Nil(t, fail)
	assert.Equal(t, host.UTC(), c.RT.Now(), "the host's clock, in UTC")
	assert.Equal(t, "sig-0123", c.RT.Hex("sig", 8), "the host's ids")

	env.Now, env.IDs = nil, nil
	c, fail = Start(env)
	require.Nil(t, fail)
	assert.Equal(t, time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC), c.RT.Now(), "no host clock: DELIVERY_NOW")
	assert.Len(t, c.RT.Hex("sig", 8), 8)
	assert.NotEqual(t, "sig-0123", c.RT.Hex("sig", 8))
}
