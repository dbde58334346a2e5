// Scaffolded by `cmdbridge scaffold config:get`: the native tool's contract with its legacy command.

package config_test

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/config"
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

func TestGetReadsTheFileAsItIs(t *testing.T) {
	root := nativetest.Workspace(t)
	cases := []struct {
		name, input string
		want        map[string]any
		warnings    []string
	}{
		{"scalar", `{"key":"id"}`, map[string]any{"key": "id", "set": true, "value": "acme"}, []string{}},
		{"mapping", `{"key":"software_delivery.lanes.definitions.0"}`,
			map[string]any{"key": "software_delivery.lanes.definitions.0", "set": true, "value": map[string]any{"name": "Core: API"}}, []string{}},
		{"unset key warns", `{"key":"memory_namespace"}`, map[string]any{"key": "memory_namespace", "set": false, "value": nil},
			[]string{`key "memory_namespace" is not set`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := call(t, root, "config:get", tc.input, nil)
			assert.Equal(t, tc.want, nativetest.Data(t, out))
			assert.Equal(t, tc.warnings, out.Metadata["warnings"])
		})
	}
}

func TestGetFailsWithTheCommandsCodes(t *testing.T) {
	root := nativetest.Workspace(t)
	outside := t.TempDir()
	cases := []struct {
		name, dir, input string
		env              map[string]string
		code             string
	}{
		{"absent key is refused by the schema", root, `{}`, nil, nativetest.InvalidAt("/key")},
		{"empty key is refused by the schema", root, `{"key":""}`, nil, nativetest.InvalidAt("/key")},
		{"unknown root key is refused by the schema", root, `{"key":"bogus.key"}`, nil, nativetest.InvalidAt("/key")},
		{"no workspace", outside, `{"key":"id"}`, nil, tool.CodeNoWorkspace},
		{"the schema before no workspace", outside, `{"key":"bogus"}`, nil, nativetest.InvalidAt("/key")},
		{"bad environment first", root, `{"key":"software_delivery.git.push"}`, map[string]string{"DELIVERY_NOW": "yesterday"}, tool.CodeUsage},
		{"wrong JSON type", root, `{"key":1}`, nil, nativetest.InvalidAt("/key")},
		{"the schema before the environment", root, `{}`, map[string]string{"DELIVERY_NOW": "yesterday"}, nativetest.InvalidAt("/key")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.code, nativetest.Outcome(t, call(t, tc.dir, "config:get", tc.input, tc.env)))
		})
	}
}
