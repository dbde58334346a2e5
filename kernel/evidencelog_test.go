package kernel_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/tool"
)

// A tool that replaces the evidence log by rename (as metrics:snapshot --output once
// did) must not leave the kernel appending to a file nobody can read: the next call is
// refused, and nothing runs unrecorded.
func TestCallsAreRefusedOnceTheEvidenceLogIsReplaced(t *testing.T) {
	k, ws := newKernel(t, &probe{})
	res := k.Call(context.Background(), req("test:echo", `{"text":"before"}`))
	require.True(t, res.Output.Success, "%+v", res.Output.Error)

	dir := filepath.Join(ws, ".cmdbridge", "evidence")
	tmp := filepath.Join(dir, "replacement")
	require.NoError(t, os.WriteFile(tmp, nil, 0o644))
	require.NoError(t, os.Rename(tmp, filepath.Join(dir, "receipts.jsonl")))

	res = k.Call(context.Background(), req("test:echo", `{"text":"after"}`))
	require.False(t, res.Output.Success)
	assert.Equal(t, tool.CodeExecutionFailed, res.Output.Error.Code)
	assert.Contains(t, res.Output.Error.Message, "replaced under the running log")
}
