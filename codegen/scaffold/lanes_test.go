package scaffold_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/codegen/scaffold/testdata/greet"
	"github.com/cmdbridge/cmdbridge/codegen/scaffold/testdata/greet/tools"
	"github.com/cmdbridge/cmdbridge/parity"
	// The golden output of the generator for demo:greet, compiled as a real package: it
	// registers the skeleton in tools.Default.
	_ "github.com/cmdbridge/cmdbridge/codegen/scaffold/testdata/golden/nativetools/demo"
)

// TestSkeletonFailsParity: a freshly scaffolded tool answers NOT_IMPLEMENTED, so parity
// between the adapter and native lanes fails (and the seeded script with it) until the
// handler is written.
func TestSkeletonFailsParity(t *testing.T) {
	input := json.RawMessage(`{"name":"Ada","times":2}`)
	rep, err := parity.Run(context.Background(), "demo:greet", input, parity.Config{
		Workspace: t.TempDir(),
		Lanes:     []string{parity.LaneAdapter, parity.LaneNative},
		Commands:  greet.Commands,
		Native:    tools.Default,
		Scratch:   t.TempDir(),
	})
	require.NoError(t, err)
	require.Len(t, rep.Results, 2)
	assert.True(t, rep.Results[0].Output.Success, "adapter lane: %+v", rep.Results[0].Output)
	native := rep.Results[1].Output
	require.NotNil(t, native.Error)
	assert.Equal(t, "NOT_IMPLEMENTED", native.Error.Code)
	assert.False(t, rep.OK(), "parity must fail while the handler is a skeleton")
	assert.Contains(t, rep.String(), "NOT_IMPLEMENTED")
}
