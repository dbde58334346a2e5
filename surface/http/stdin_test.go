package http_test

import (
	"context"
	"encoding/json"
	"io"
	nethttp "net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/surface/events"
	surfacehttp "github.com/cmdbridge/cmdbridge/surface/http"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// withCat adds t:cat, which returns its stdin as text.
func withCat(t testing.TB) func(r *native.Registry, _ chan struct{}) {
	return func(r *native.Registry, _ chan struct{}) {
		require.NoError(t, r.Add(native.New(tool.Spec{Name: "t:cat", Domain: "t", Description: "Return the standard input.",
			Annotations: tool.Annotations{ReadOnlyHint: true}},
			func(ctx context.Context, env *tool.Env, in noIn) tool.Output {
				b, err := io.ReadAll(env.Stdin)
				if err != nil {
					return tool.Fail(tool.CodeExecutionFailed, "%v", err)
				}
				return tool.OK(string(b))
			})))
	}
}

func TestCallWithStdin(t *testing.T) {
	f := buildFixture(t, surfacehttp.Config{}, nil, withCat(t))
	tok := mintToken(t, "ws-1", []string{"t:*"}, []string{"."}, nil, time.Hour)
	wrap := func(stdin string) string {
		b, err := json.Marshal(map[string]any{"input": map[string]any{}, "stdin": stdin})
		require.NoError(t, err)
		return string(b)
	}
	for _, tc := range []struct {
		name, path, body, want string
	}{
		{"wrapped", "/tools/t:cat?stdin=1", wrap("hello\nworld\n"), "hello\nworld\n"},
		{"wrapped true", "/tools/t:cat?stdin=true", wrap("yes"), "yes"},
		{"wrapped without stdin", "/tools/t:cat?stdin=1", `{"input":{}}`, ""},
		{"wrapped without input", "/tools/t:cat?stdin=1", `{"stdin":"only"}`, "only"},
		{"plain body has no stdin", "/tools/t:cat", `{}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := f.do(t, "POST", tc.path, tok, tc.body)
			require.Equal(t, nethttp.StatusOK, resp.Status, resp.Body)
			out := decodeOutput(t, resp.Body)
			require.True(t, out.Success, resp.Body)
			assert.Equal(t, tc.want, out.Data)
			res := f.waitResult(t)
			assert.Equal(t, tc.want != "", res.Receipt.StdinHash != "", "stdin_hash: %q", res.Receipt.StdinHash)
		})
	}
}

func TestCallWithStdinRefusals(t *testing.T) {
	f := buildFixture(t, surfacehttp.Config{MaxBodyBytes: 4 << 20}, nil, withCat(t))
	tok := mintToken(t, "ws-1", []string{"t:*"}, []string{"."}, nil, time.Hour)
	for _, tc := range []struct {
		name, path, body, why string
	}{
		{"bad flag", "/tools/t:cat?stdin=yes", `{"input":{}}`, "must be 1 or true"},
		{"not an object", "/tools/t:cat?stdin=1", `"text"`, "must be one JSON object"},
		{"unknown field", "/tools/t:cat?stdin=1", `{"input":{},"stdin":"a","lane":"x"}`, "unknown field"},
		{"stdin not a string", "/tools/t:cat?stdin=1", `{"input":{},"stdin":[1,2]}`, "cannot unmarshal"},
		{"input not an object", "/tools/t:cat?stdin=1", `{"input":[1],"stdin":"a"}`, "input: request body is not a JSON object: line 1, column 1: a JSON array, expected an object such as {}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := f.do(t, "POST", tc.path, tok, tc.body)
			require.Equal(t, nethttp.StatusBadRequest, resp.Status, resp.Body)
			out := decodeOutput(t, resp.Body)
			assert.Equal(t, tool.CodeInvalidInput, out.Error.Code)
			assert.Contains(t, out.Error.Message, tc.why)
		})
	}
	t.Run("over the kernel's limit", func(t *testing.T) {
		resp := f.do(t, "POST", "/tools/t:cat?stdin=1", tok, `{"stdin":"`+strings.Repeat("x", kernel.DefaultMaxStdin+1)+`"}`)
		require.Equal(t, nethttp.StatusOK, resp.Status)
		out := decodeOutput(t, resp.Body)
		require.NotNil(t, out.Error, resp.Body[:min(len(resp.Body), 300)])
		assert.Equal(t, tool.CodeInvalidInput, out.Error.Code)
		assert.Contains(t, out.Error.Message, "over the limit")
	})
}

func TestCallWithStdinIsBoundedByMaxBody(t *testing.T) {
	f := buildFixture(t, surfacehttp.Config{MaxBodyBytes: 64}, nil, withCat(t))
	tok := mintToken(t, "ws-1", []string{"t:*"}, []string{"."}, nil, time.Hour)
	resp := f.do(t, "POST", "/tools/t:cat?stdin=1", tok, `{"stdin":"`+strings.Repeat("x", 64)+`"}`)
	assert.Equal(t, nethttp.StatusRequestEntityTooLarge, resp.Status, resp.Body)
}

func TestTurnCallsCarryStdin(t *testing.T) {
	f := buildFixture(t, surfacehttp.Config{}, nil, withCat(t))
	tok := mintToken(t, "ws-1", []string{"t:*"}, []string{"."}, nil, time.Hour)
	resp := f.do(t, "POST", "/turns", tok, `{"calls":[{"tool":"t:cat","stdin":"first"},{"tool":"t:cat"},{"tool":"t:cat","input":{},"stdin":"third\n"}]}`)
	require.Equal(t, nethttp.StatusOK, resp.Status, resp.Body)
	var body struct {
		Results []tool.Output `json:"results"`
	}
	require.NoError(t, json.Unmarshal([]byte(resp.Body), &body), resp.Body)
	require.Len(t, body.Results, 3)
	for i, want := range []string{"first", "", "third\n"} {
		require.True(t, body.Results[i].Success, "%d: %s", i, resp.Body)
		assert.Equal(t, want, body.Results[i].Data, i)
	}
}

// TestApprovalRequestedNamesTheStdin: the approval asked for a call with stdin carries
// the receipt's stdin_hash beside input_hash (what an approver re-runs must match both);
// a call without stdin has none.
func TestApprovalRequestedNamesTheStdin(t *testing.T) {
	hub := newHub(t, t.TempDir())
	f, errs := newEventFixture(t, hub)
	tok := writerToken(t, "ws-1")
	r := f.do(t, "POST", "/tools/turn:destroy?stdin=1", tok, `{"stdin":"a"}`)
	require.Equal(t, tool.CodeApprovalRequired, codeOf(decodeOutput(t, r.Body)), r.Body)
	r = f.do(t, "POST", "/tools/turn:destroy", tok, `{}`)
	require.Equal(t, tool.CodeApprovalRequired, codeOf(decodeOutput(t, r.Body)), r.Body)
	assert.Empty(t, *errs)

	evs := openSSE(t, f, tok).take(t, 2)
	for _, ev := range evs {
		require.Equal(t, events.KindApprovalRequested, ev.Kind)
	}
	assert.Equal(t, "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb", evs[0].Payload["stdin_hash"], "SHA-256 of \"a\"")
	assert.Equal(t, evs[0].Payload["input_hash"], evs[1].Payload["input_hash"])
	assert.NotContains(t, evs[1].Payload, "stdin_hash")
}
