package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cmdbridge/cmdbridge/kernel"
)

// sessionHeader is the streamable HTTP transport's session header.
const sessionHeader = "Mcp-Session-Id"

// HTTPHandler serves k's tools over the SDK's streamable HTTP transport, every call
// running as caller. Mount it at /mcp; authentication (which caller a request is) is
// the mounting server's job, done before this handler is reached. The SDK's DNS
// rebinding protection stays on: a request that arrives on a loopback address with a
// non-loopback Host header is refused.
//
// A session that receives no request for the idle time ([WithSessionIdle]) is closed;
// a request naming it is then answered 404, as the transport specifies, and the client
// starts a new session. A request without a session id that is not initialize is
// answered with a JSON-RPC invalid-request error (HTTP 400) instead of opening a
// session that cannot be used.
func HTTPHandler(k *kernel.Kernel, caller kernel.Caller, opts ...Option) (http.Handler, error) {
	o := buildOptions(opts)
	srv, _, err := newServer(k, caller, o)
	if err != nil {
		return nil, err
	}
	h := sdkmcp.NewStreamableHTTPHandler(func(*http.Request) *sdkmcp.Server { return srv },
		&sdkmcp.StreamableHTTPOptions{SessionTimeout: o.sessionIdle})
	return initializeFirst(h), nil
}

// initializeFirst refuses a sessionless POST that carries a request other than
// initialize (or one of the sessionless protocol's, which name their version in
// _meta): the SDK would open a session for it and answer with an error without a
// JSON-RPC code.
func initializeFirst(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get(sessionHeader) != "" {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, sdkmcp.DefaultMaxRequestBodyBytes+1))
		if err != nil {
			http.Error(w, "reading the request body: "+err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			ID     any    `json:"id"`
			Method string `json:"method"`
			Params struct {
				Meta map[string]any `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal(body, &msg) == nil && msg.ID != nil && msg.Method != "" &&
			msg.Method != "initialize" && msg.Method != "ping" &&
			msg.Params.Meta["io.modelcontextprotocol/protocolVersion"] == nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_ = json.NewEncoder(w).Encode(map[string]any{
				"jsonrpc": "2.0", "id": msg.ID,
				"error": map[string]any{
					"code":    CodeNotInitialized,
					"message": fmt.Sprintf("server not initialized: %q needs a session; send initialize first", msg.Method),
				},
			})
			return
		}
		next.ServeHTTP(w, r)
	})
}
