package http_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	nethttp "net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/golden"
	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	surfacehttp "github.com/cmdbridge/cmdbridge/surface/http"
	"github.com/cmdbridge/cmdbridge/tool"
)

func decodeOutput(t testing.TB, body string) tool.Output {
	t.Helper()
	var out tool.Output
	require.NoError(t, json.Unmarshal([]byte(body), &out), body)
	return out
}

// TestCallMatrix runs every token × tool × input combination and checks the status, the
// Output's code, and that every 404 is byte-identical to every other.
func TestCallMatrix(t *testing.T) {
	f := newFixture(t, surfacehttp.Config{})
	forged := mintToken(t, "ws-1", []string{"*"}, []string{"."}, nil, time.Hour)
	// Change one character inside the signature (not the last: its low bits may be
	// padding, and a changed padding bit decodes to the same signature).
	i := len(forged) - 5
	swap := byte('A')
	if forged[i] == swap {
		swap = 'B'
	}
	forged = forged[:i] + string(swap) + forged[i+1:]
	tokens := []struct {
		name string
		tok  string
		auth bool
		sees map[string]bool
	}{
		{"none", "", false, nil},
		{"bad signature", forged, false, nil},
		{"expired", mintToken(t, "ws-1", []string{"*"}, []string{"."}, nil, -time.Hour), false, nil},
		{"narrow", mintToken(t, "ws-1:phone:dev-1", []string{"t:*"}, []string{"."}, nil, time.Hour), true,
			map[string]bool{"t:echo": true}},
		{"wide", mintToken(t, "ws-1", []string{"**"}, []string{"."}, nil, time.Hour), true,
			map[string]bool{"t:echo": true, "secret:peek": true}},
	}
	// t:off is disabled and t:gone excluded by governance: no token sees them.
	tools := []string{"t:echo", "secret:peek", "t:off", "t:gone", "nope:nope"}
	inputs := []struct {
		name, body string
		status     int
		code       string // "" means success
	}{
		{"valid", `{"text":"hi"}`, 200, ""},
		{"malformed JSON", `{"text":`, 400, tool.CodeInvalidInput},
		{"schema-invalid", `{"text":5}`, 200, tool.CodeInvalidInput},
	}
	var notFound []response
	for _, tk := range tokens {
		for _, name := range tools {
			for _, in := range inputs {
				t.Run(fmt.Sprintf("%s/%s/%s", tk.name, name, in.name), func(t *testing.T) {
					r := f.do(t, "POST", "/tools/"+name, tk.tok, in.body)
					switch {
					case !tk.auth:
						assert.Equal(t, 401, r.Status)
						assert.Contains(t, r.Header.Get("WWW-Authenticate"), `Bearer realm="cmdbridge"`)
						if tk.tok != "" {
							assert.Contains(t, r.Header.Get("WWW-Authenticate"), `error="invalid_token"`)
						}
						assert.Empty(t, r.Header.Get(surfacehttp.CallIDHeader))
					case !tk.sees[name]:
						assert.Equal(t, 404, r.Status)
						assert.Equal(t, tool.CodeToolNotFound, decodeOutput(t, r.Body).Error.Code)
						notFound = append(notFound, r)
					default:
						require.Equal(t, in.status, r.Status, r.Body)
						out := decodeOutput(t, r.Body)
						if in.code == "" {
							assert.True(t, out.Success, r.Body)
							assert.Equal(t, map[string]any{"text": "hi"}, out.Data)
							assert.NotEmpty(t, r.Header.Get(surfacehttp.CallIDHeader))
						} else {
							assert.False(t, out.Success)
							assert.Equal(t, in.code, out.Error.Code, r.Body)
							if in.status == 400 {
								assert.Equal(t, "request body is not a JSON object: line 1, column 9: unexpected end of input, expected the object to continue and close with }", out.Error.Message)
							}
						}
					}
				})
			}
		}
	}
	// 2 tokens: narrow hides 4 names, wide 3; 3 inputs each.
	require.Len(t, notFound, (4+3)*3)
	for _, r := range notFound[1:] {
		assert.Equal(t, notFound[0], r, "hidden and unknown tools must be indistinguishable")
	}
	assert.Empty(t, notFound[0].Header.Get("Date"))
}

func TestCallSubjectAndScopesComeFromTheToken(t *testing.T) {
	f := newFixture(t, surfacehttp.Config{})
	readOnly := mintToken(t, "ws-1:phone:dev-2", []string{"t:*"}, []string{"."}, nil, time.Hour)
	noScopes := mintToken(t, "ws-1", []string{"t:*"}, nil, nil, time.Hour)
	writer := mintToken(t, "ws-1", []string{"t:*"}, nil, []string{"out"}, time.Hour)
	for _, tc := range []struct {
		name, tok, tool, body, code string
	}{
		{"read scope reads", readOnly, "t:echo", `{"text":"x"}`, ""},
		{"no scope cannot read", noScopes, "t:echo", `{}`, tool.CodeScopeDenied},
		{"read scope cannot write", readOnly, "t:write", `{"path":"out/a"}`, tool.CodeScopeDenied},
		{"write scope writes inside", writer, "t:write", `{"path":"out/a"}`, ""},
		{"write scope stops at its edge", writer, "t:write", `{"path":"../x"}`, tool.CodeScopeDenied},
		{"a body cannot claim a subject", readOnly, "t:echo", `{"subject":"admin"}`, tool.CodeInvalidInput},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := f.do(t, "POST", "/tools/"+tc.tool, tc.tok, tc.body)
			require.Equal(t, 200, r.Status, r.Body)
			out := decodeOutput(t, r.Body)
			res := f.waitResult(t)
			if tc.code == "" {
				assert.True(t, out.Success, r.Body)
			} else {
				require.NotNil(t, out.Error, r.Body)
				assert.Equal(t, tc.code, out.Error.Code)
			}
			assert.Equal(t, out.Metadata["call_id"], res.Receipt.ID)
			want := "ws-1"
			if tc.tok == readOnly {
				want = "ws-1:phone:dev-2"
			}
			assert.Equal(t, want, res.Receipt.Subject)
		})
	}
}

func TestCallTransport(t *testing.T) {
	f := newFixture(t, surfacehttp.Config{MaxBodyBytes: 64})
	tok := mintToken(t, "ws-1", []string{"t:*"}, []string{"."}, nil, time.Hour)
	for _, tc := range []struct {
		name, path, body string
		status           int
		code             string
	}{
		{"empty body is {}", "/tools/t:echo", "", 200, ""},
		{"array body", "/tools/t:echo", `[1]`, 400, tool.CodeInvalidInput},
		{"string body", "/tools/t:echo", `"hi"`, 400, tool.CodeInvalidInput},
		{"two objects", "/tools/t:echo", `{}{}`, 400, tool.CodeInvalidInput},
		{"oversize", "/tools/t:echo", `{"text":"` + strings.Repeat("x", 100) + `"}`, 413, tool.CodeTooLarge},
		{"snake spelling", "/tools/t_echo", `{"text":"hi"}`, 200, ""},
		{"camel spelling", "/tools/TEcho", `{"text":"hi"}`, 200, ""},
		{"pack prefix", "/tools/software-delivery:t_echo", `{"text":"hi"}`, 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := f.do(t, "POST", tc.path, tok, tc.body)
			require.Equal(t, tc.status, r.Status, r.Body)
			out := decodeOutput(t, r.Body)
			if tc.code == "" {
				assert.True(t, out.Success, r.Body)
			} else {
				assert.Equal(t, tc.code, out.Error.Code)
			}
		})
	}
	r := f.do(t, "GET", "/tools/t:echo", tok, "")
	assert.Equal(t, nethttp.StatusMethodNotAllowed, r.Status)
	r = f.do(t, "GET", "/healthz", "", "")
	assert.Equal(t, 200, r.Status)
	assert.JSONEq(t, `{"ok":true}`, r.Body)
}

func TestListTools(t *testing.T) {
	f := newFixture(t, surfacehttp.Config{})
	narrow := mintToken(t, "ws-1", []string{"t:*"}, nil, nil, time.Hour)
	sameGlobs := mintToken(t, "other", []string{"t:*"}, nil, nil, time.Hour)
	wide := mintToken(t, "ws-1", []string{"*"}, nil, nil, time.Hour)
	none := mintToken(t, "ws-1", nil, nil, nil, time.Hour)

	r := f.do(t, "GET", "/tools", narrow, "")
	require.Equal(t, 200, r.Status)
	golden.Check(t, "tools_narrow.json", []byte(r.Body))
	var doc struct {
		SchemaVersion int                     `json:"schema_version"`
		Tools         []surfacehttp.ToolEntry `json:"tools"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.Body), &doc))
	assert.Equal(t, 2, doc.SchemaVersion)
	assert.Equal(t, []string{"t:echo", "t:slow", "t:write"}, names(doc.Tools))
	assert.Equal(t, "read", doc.Tools[0].Scope)
	assert.Equal(t, "write", doc.Tools[2].Scope)
	assert.Equal(t, fixturePack, doc.Tools[0].Pack)

	etag := r.Header.Get("ETag")
	require.Regexp(t, `^"[0-9a-f]{32}"$`, etag)
	again := f.do(t, "GET", "/tools", sameGlobs, "")
	assert.Equal(t, r.Body, again.Body, "same globs, same bytes")
	assert.Equal(t, etag, again.Header.Get("ETag"))

	notModified := f.do(t, "GET", "/tools", narrow, "", "If-None-Match", etag)
	assert.Equal(t, 304, notModified.Status)
	assert.Empty(t, notModified.Body)
	assert.Equal(t, etag, notModified.Header.Get("ETag"))
	stale := f.do(t, "GET", "/tools", narrow, "", "If-None-Match", `"0000"`)
	assert.Equal(t, 200, stale.Status)

	w := f.do(t, "GET", "/tools", wide, "")
	require.NoError(t, json.Unmarshal([]byte(w.Body), &doc))
	assert.Equal(t, []string{"secret:peek", "t:echo", "t:slow", "t:write"}, names(doc.Tools), "governance hides t:off and t:gone")
	assert.NotEqual(t, etag, w.Header.Get("ETag"))
	assert.Equal(t, 304, f.do(t, "GET", "/tools", wide, "", "If-None-Match", etag+", "+w.Header.Get("ETag")).Status)

	n := f.do(t, "GET", "/tools", none, "")
	assert.JSONEq(t, `{"schema_version":2,"tools":[]}`, n.Body)
	assert.Equal(t, 401, f.do(t, "GET", "/tools", "", "").Status)
}

func names(ts []surfacehttp.ToolEntry) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

// startSlow posts t:slow and returns its call id once the headers arrived and the tool
// runs, with the response still open.
func startSlow(t *testing.T, f *fixture, ctx context.Context, tok string) (string, *nethttp.Response) {
	t.Helper()
	req, err := nethttp.NewRequestWithContext(ctx, "POST", f.ts.URL+"/tools/t:slow", strings.NewReader(`{}`))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := f.ts.Client().Do(req)
	require.NoError(t, err)
	require.Equal(t, 200, resp.StatusCode)
	id := resp.Header.Get(surfacehttp.CallIDHeader)
	require.NotEmpty(t, id)
	f.waitStarted(t)
	return id, resp
}

func TestDeleteCancelsCall(t *testing.T) {
	f := newFixture(t, surfacehttp.Config{})
	tok := mintToken(t, "ws-1", []string{"t:*"}, []string{"."}, nil, time.Hour)
	other := mintToken(t, "someone-else", []string{"t:*"}, []string{"."}, nil, time.Hour)
	id, resp := startSlow(t, f, context.Background(), tok)
	defer resp.Body.Close()
	assert.Equal(t, 1, f.srv.Active())

	assert.Equal(t, 404, f.do(t, "DELETE", "/calls/"+id, other, "").Status, "another subject cannot cancel")
	assert.Equal(t, 401, f.do(t, "DELETE", "/calls/"+id, "", "").Status)
	assert.Equal(t, 404, f.do(t, "DELETE", "/calls/nope", tok, "").Status)
	r := f.do(t, "DELETE", "/calls/"+id, tok, "")
	assert.Equal(t, 202, r.Status, r.Body)

	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	out := decodeOutput(t, string(body))
	assert.Equal(t, tool.CodeCancelled, out.Error.Code)
	res := f.waitResult(t)
	assert.Equal(t, evidence.StatusCancelled, res.Receipt.Status)
	assert.Equal(t, 404, f.do(t, "DELETE", "/calls/"+id, tok, "").Status, "a finished call is gone")
}

func TestClientDisconnectCancelsCall(t *testing.T) {
	f := newFixture(t, surfacehttp.Config{})
	tok := mintToken(t, "ws-1", []string{"t:*"}, []string{"."}, nil, time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	_, resp := startSlow(t, f, ctx, tok)
	cancel() // the client goes away
	resp.Body.Close()
	res := f.waitResult(t)
	assert.Equal(t, evidence.StatusCancelled, res.Receipt.Status)
	assert.Equal(t, tool.CodeCancelled, res.Output.Error.Code)
}

func TestCloseCancelsCallsInFlight(t *testing.T) {
	f := newFixture(t, surfacehttp.Config{})
	tok := mintToken(t, "ws-1", []string{"t:*"}, []string{"."}, nil, time.Hour)
	_, resp := startSlow(t, f, context.Background(), tok)
	defer resp.Body.Close()
	f.srv.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, tool.CodeCancelled, decodeOutput(t, string(body)).Error.Code)
	assert.Equal(t, evidence.StatusCancelled, f.waitResult(t).Receipt.Status)
}

type fakeEvents struct{}

func (fakeEvents) Handler() nethttp.Handler {
	return nethttp.HandlerFunc(func(w nethttp.ResponseWriter, r *nethttp.Request) {
		c, ok := surfacehttp.ClaimsFrom(r.Context())
		if !ok {
			w.WriteHeader(500)
			return
		}
		fmt.Fprintf(w, "events for %s at %s", c.Subject, r.URL.Path)
	})
}

func TestEventsMountedBehindAuth(t *testing.T) {
	f := newFixture(t, surfacehttp.Config{Events: fakeEvents{}})
	tok := mintToken(t, "ws-1:phone:d", nil, nil, nil, time.Hour)
	assert.Equal(t, 401, f.do(t, "GET", "/events", "", "").Status)
	r := f.do(t, "GET", "/events", tok, "")
	assert.Equal(t, 200, r.Status)
	assert.Equal(t, "events for ws-1:phone:d at /events", r.Body)
	assert.Equal(t, "events for ws-1:phone:d at /events/ack", f.do(t, "POST", "/events/ack", tok, "{}").Body)
	assert.Equal(t, 404, newFixture(t, surfacehttp.Config{}).do(t, "GET", "/events", tok, "").Status, "no stream configured")
}

func TestToolCalledHook(t *testing.T) {
	var got []surfacehttp.ToolCalled
	hook := surfacehttp.ToolCalledHook(func(e surfacehttp.ToolCalled) { got = append(got, e) })
	hook(kernel.Request{Caller: kernel.Caller{Subject: "ws-1:phone:d"}, Input: json.RawMessage(`{"from":"forged"}`)},
		kernel.Result{Output: tool.Fail(tool.CodeNotFound, "x"), Receipt: evidence.Receipt{
			ID: "call-1", RunID: "run-1", Tool: "wu:status", Lane: "native", Status: "failed", ErrorCode: "NOT_FOUND", DurationUS: 1500,
		}})
	assert.Equal(t, []surfacehttp.ToolCalled{{
		From: "ws-1:phone:d", RunID: "run-1", CallID: "call-1", Tool: "wu:status", Lane: "native",
		Status: "failed", ErrorCode: "NOT_FOUND", DurationMS: 1.5,
	}}, got)
}

// TestListToolsOpenAIStrict: with the openai-strict dialect GET /tools sends a tool whose
// schema strict mode states exactly in that form, marked openai_strict, and a call that
// sends null for an optional property runs as without it.
func TestListToolsOpenAIStrict(t *testing.T) {
	f := newFixture(t, surfacehttp.Config{SchemaDialect: tool.DialectOpenAIStrict})
	tok := mintToken(t, "ws-1", []string{"t:*"}, []string{"."}, nil, time.Hour)
	r := f.do(t, "GET", "/tools", tok, "")
	require.Equal(t, 200, r.Status)
	var doc struct {
		Tools []surfacehttp.ToolEntry `json:"tools"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.Body), &doc))
	require.Equal(t, "t:echo", doc.Tools[0].Name)
	assert.True(t, doc.Tools[0].Strict)
	b, _ := json.Marshal(doc.Tools[0].InputSchema)
	assert.JSONEq(t, `{"type":"object","additionalProperties":false,"required":["text"],
		"properties":{"text":{"description":"text to echo back","type":["string","null"]}}}`, string(b))

	call := f.do(t, "POST", "/tools/t:echo", tok, `{"text":null}`)
	require.Equal(t, 200, call.Status, call.Body)
	assert.Contains(t, call.Body, `"success":true`)
}
