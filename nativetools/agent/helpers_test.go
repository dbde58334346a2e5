package agent_test

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// call runs the registered tool in dir with nativetest's pinned environment and returns
// its Output as the tool made it: data is not normalised, so its JSON keeps the tool's
// key order.
func call(t *testing.T, dir, name, input string) tool.Output {
	t.Helper()
	nt, ok := nativetools.Default.Lookup(name)
	require.True(t, ok, "tool %s is registered", name)
	return nt.Call(context.Background(), &tool.Env{Dir: dir, LookupEnv: tool.EnvFromMap(nativetest.Env),
		Stdin: strings.NewReader(""), Log: io.Discard}, json.RawMessage(input))
}
