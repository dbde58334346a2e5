package files_test

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

// call runs the registered tool in dir with nativetest's pinned environment plus extra,
// and returns its Output with data as generic JSON.
func call(t *testing.T, dir, name, input string, extra map[string]string) tool.Output {
	t.Helper()
	if extra == nil {
		return nativetest.Call(t, dir, name, input)
	}
	env := map[string]string{}
	for k, v := range nativetest.Env {
		env[k] = v
	}
	for k, v := range extra {
		env[k] = v
	}
	nt, ok := nativetools.Default.Lookup(name)
	require.True(t, ok, "tool %s is registered", name)
	return nt.Call(context.Background(), &tool.Env{Dir: dir, LookupEnv: tool.EnvFromMap(env),
		Stdin: strings.NewReader(""), Log: io.Discard}, json.RawMessage(input))
}
