package http_test

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	surfacehttp "github.com/cmdbridge/cmdbridge/surface/http"
	"github.com/cmdbridge/cmdbridge/tool"
)

// authParams parses a Bearer challenge's auth-params (RFC 9110 §11.2: token=quoted-string
// or token=token, comma separated).
func authParams(t *testing.T, challenge string) map[string]string {
	t.Helper()
	scheme, rest, ok := strings.Cut(challenge, " ")
	require.True(t, ok, challenge)
	require.Equal(t, "Bearer", scheme)
	re := regexp.MustCompile(`\s*([A-Za-z_]+)=(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))\s*(?:,|$)`)
	out := map[string]string{}
	consumed := 0
	for _, m := range re.FindAllStringSubmatchIndex(rest, -1) {
		require.Equal(t, consumed, m[0], "auth-params of %q are not one comma-separated list", challenge)
		consumed = m[1]
		name := rest[m[2]:m[3]]
		if m[4] >= 0 {
			out[name] = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(rest[m[4]:m[5]])
		} else {
			out[name] = rest[m[6]:m[7]]
		}
	}
	require.Equal(t, len(rest), consumed, challenge)
	return out
}

// TestUnauthorizedNamesResourceMetadata: every 401 carries a Bearer challenge whose
// resource_metadata (RFC 9728 §5.1) is the metadata of the resource asked for, /mcp's
// own for /mcp; a token that was sent and refused adds error="invalid_token" and a
// description, a request without one names no error (RFC 6750 §3.1).
func TestUnauthorizedNamesResourceMetadata(t *testing.T) {
	f := newFixture(t, surfacehttp.Config{})
	expired := mintToken(t, "ws-1", []string{"*"}, nil, nil, -time.Hour)
	for _, tc := range []struct {
		method, path, tok, metadata string
	}{
		{"POST", "/mcp", "", "/.well-known/oauth-protected-resource/mcp"},
		{"GET", "/mcp", "", "/.well-known/oauth-protected-resource/mcp"},
		{"POST", "/mcp", expired, "/.well-known/oauth-protected-resource/mcp"},
		{"POST", "/mcp", "cb1.garbage.sig", "/.well-known/oauth-protected-resource/mcp"},
		{"GET", "/tools", "", "/.well-known/oauth-protected-resource"},
		{"POST", "/tools/t:echo", expired, "/.well-known/oauth-protected-resource"},
	} {
		t.Run(tc.method+tc.path+"/token="+map[bool]string{true: "sent", false: "none"}[tc.tok != ""], func(t *testing.T) {
			r := f.do(t, tc.method, tc.path, tc.tok, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
				"Accept", "application/json, text/event-stream", "Content-Type", "application/json")
			require.Equal(t, 401, r.Status, r.Body)
			p := authParams(t, r.Header.Get("WWW-Authenticate"))
			assert.Equal(t, "cmdbridge", p["realm"])
			assert.Equal(t, f.ts.URL+tc.metadata, p["resource_metadata"])
			if tc.tok == "" {
				assert.NotContains(t, p, "error")
				assert.NotContains(t, p, "error_description")
			} else {
				assert.Equal(t, "invalid_token", p["error"])
				assert.Equal(t, "the bearer token is invalid or expired", p["error_description"])
			}
			assert.Equal(t, "UNAUTHORIZED", decodeOutput(t, r.Body).Error.Code)

			// The URL it names is served without a token, and its resource is the
			// resource asked for (RFC 9728 §3.3: the client checks exactly that).
			m := f.do(t, "GET", strings.TrimPrefix(p["resource_metadata"], f.ts.URL), "", "")
			require.Equal(t, 200, m.Status, m.Body)
			var doc map[string]any
			require.NoError(t, json.Unmarshal([]byte(m.Body), &doc))
			want := f.ts.URL
			if tc.path == "/mcp" {
				want += "/mcp"
			}
			assert.Equal(t, want, doc["resource"])
		})
	}
}

// TestProtectedResourceMetadata: both documents are served without a token, say that
// tokens go in the Authorization header and how to mint one, name no authorization
// server (none exists), and hold nothing secret: not the key, not a token.
func TestProtectedResourceMetadata(t *testing.T) {
	f := newFixture(t, surfacehttp.Config{ResourceDocumentation: "https://docs.example.com/cmdbridge/http"})
	tok := mintToken(t, "ws-1", []string{"*"}, []string{"."}, nil, time.Hour)
	for _, suffix := range []string{"", "/mcp"} {
		t.Run("path="+suffix, func(t *testing.T) {
			for _, bearer := range []string{"", tok} { // a token changes nothing
				r := f.do(t, "GET", surfacehttp.ResourceMetadataPath+suffix, bearer, "")
				require.Equal(t, 200, r.Status, r.Body)
				assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
				var doc map[string]any
				require.NoError(t, json.Unmarshal([]byte(r.Body), &doc))
				assert.Equal(t, map[string]any{
					"resource":                     f.ts.URL + suffix,
					"resource_name":                "cmdbridge",
					"bearer_methods_supported":     []any{"header"},
					"resource_documentation":       "https://docs.example.com/cmdbridge/http",
					"cmdbridge_token_instructions": surfacehttp.TokenInstructions,
				}, doc)
				assert.NotContains(t, doc, "authorization_servers", "there is no authorization server to name")
				assert.Contains(t, doc["cmdbridge_token_instructions"], "token mint")
				for _, secret := range []string{
					tok, hex.EncodeToString(testKey), base64.StdEncoding.EncodeToString(testKey),
					base64.RawURLEncoding.EncodeToString(testKey), string(testKey),
				} {
					assert.NotContains(t, r.Body, secret)
				}
				assert.NotContains(t, r.Body, "t:echo", "no tool is named")
			}
			head := f.do(t, "HEAD", surfacehttp.ResourceMetadataPath+suffix, "", "")
			assert.Equal(t, 200, head.Status)
			post := f.do(t, "POST", surfacehttp.ResourceMetadataPath+suffix, "", "{}")
			assert.Equal(t, 405, post.Status)
			// The Origin check holds here as everywhere (surface/origin).
			evil := f.do(t, "GET", surfacehttp.ResourceMetadataPath+suffix, "", "", "Origin", "https://evil.example")
			assert.Equal(t, 403, evil.Status)
		})
	}
	// Other suffixes are not resources of this server.
	assert.Equal(t, 404, f.do(t, "GET", surfacehttp.ResourceMetadataPath+"/tools", "", "").Status)
}

// TestProtectedResourceMetadataPublicURL: behind a proxy the configured origin names
// the resource and the challenge, whatever Host the request carried.
func TestProtectedResourceMetadataPublicURL(t *testing.T) {
	f := newFixture(t, surfacehttp.Config{PublicURL: "https://mcp.example.com/"})
	r := f.do(t, "GET", surfacehttp.ResourceMetadataPath+"/mcp", "", "")
	require.Equal(t, 200, r.Status)
	var doc surfacehttp.ResourceMetadata
	require.NoError(t, json.Unmarshal([]byte(r.Body), &doc))
	assert.Equal(t, "https://mcp.example.com/mcp", doc.Resource)
	assert.Empty(t, doc.ResourceDocumentation)
	u := f.do(t, "POST", "/mcp", "", "{}")
	require.Equal(t, 401, u.Status)
	assert.Equal(t, "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
		authParams(t, u.Header.Get("WWW-Authenticate"))["resource_metadata"])

	for _, bad := range []string{"mcp.example.com", "ftp://x", "https://x/base", "https://x?q=1", "https://u@x"} {
		_, err := surfacehttp.New(surfacehttp.Config{Kernel: f.k, Key: testKey, PublicURL: bad})
		assert.Error(t, err, bad)
	}
}

// TestTypeScriptClientWithToken: the official TypeScript SDK, as a host holding a
// static token uses it: unauthenticated, it finds the metadata through the 401 and
// accepts it (its schema and its resource check); with the token in requestInit and no
// authProvider (so no interactive OAuth can start) it lists the token's tools and calls
// one.
func TestTypeScriptClientWithToken(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("needs Node.js (node on PATH) to run the official TypeScript MCP client")
	}
	dir := filepath.Join("..", "..", "testdata", "mcpclient")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Fatalf("node is installed but the SDK is not: run `make deps` (npm ci --prefix testdata/mcpclient)")
	}
	f := newFixture(t, surfacehttp.Config{})
	tok := mintToken(t, "ws-1", []string{"t:echo", "t:slow"}, []string{"."}, nil, time.Hour)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "auth.mjs", f.ts.URL+"/mcp", tok, "t_echo", `{"text":"hi"}`)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	var rep struct {
		Status   int                          `json:"unauthenticated_status"`
		Metadata string                       `json:"resource_metadata"`
		Doc      surfacehttp.ResourceMetadata `json:"metadata"`
		Selected string                       `json:"selected_resource"`
		Tools    []string                     `json:"tools"`
		IsError  bool                         `json:"call_is_error"`
		Text     string                       `json:"call_text"`
	}
	require.NoError(t, json.Unmarshal(out, &rep), string(out))
	assert.Equal(t, 401, rep.Status)
	assert.Equal(t, f.ts.URL+"/.well-known/oauth-protected-resource/mcp", rep.Metadata)
	assert.Equal(t, f.ts.URL+"/mcp", rep.Doc.Resource)
	assert.Equal(t, f.ts.URL+"/mcp", rep.Selected)
	assert.Equal(t, []string{"t_echo", "t_slow"}, rep.Tools)
	require.False(t, rep.IsError, rep.Text)
	var got tool.Output
	require.NoError(t, json.Unmarshal([]byte(rep.Text), &got))
	assert.Equal(t, map[string]any{"text": "hi"}, got.Data)
	assert.Equal(t, "ws-1", f.waitResult(t).Receipt.Subject)
}
