package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/surface/origin"
)

// sessionHeader is the streamable HTTP transport's session header.
const sessionHeader = "Mcp-Session-Id"

// HTTPHandler serves k's tools over the SDK's streamable HTTP transport, every call
// running as caller. Mount it at /mcp; authentication (which caller a request is) is
// the mounting server's job, done before this handler is reached. The SDK's DNS
// rebinding protection stays on: a request that arrives on a loopback address with a
// non-loopback Host header is refused; and a request whose Origin header is neither
// the server's own origin nor one of [Config.AllowedOrigins] is answered 403, on every
// address. A body over [Config.MaxBodyBytes] is answered 413.
//
// A session that receives no request for the idle time ([Config.SessionIdle]) is closed;
// a request naming it is then answered 404, as the transport specifies, and the client
// starts a new session. A request without a session id that is not initialize is
// answered with a JSON-RPC invalid-request error (HTTP 400) instead of opening a
// session that cannot be used. A request the client cancels gets no response: its
// event stream ends without one.
func HTTPHandler(k *kernel.Kernel, caller kernel.Caller, cfg Config) (http.Handler, error) {
	srv, _, err := newServer(k, caller, cfg.options())
	if err != nil {
		return nil, err
	}
	return StreamableHandler(srv, cfg), nil
}

// StreamableHandler serves srv (built by [NewServer], perhaps with tools removed) over
// the streamable HTTP transport with the guarantees [HTTPHandler] describes: idle
// sessions expire ([Config.SessionIdle]), a sessionless request other than initialize
// is a JSON-RPC invalid request, and a cancelled request gets no response. Only the
// transport's fields of cfg apply; the server's were fixed when srv was built.
func StreamableHandler(srv *sdkmcp.Server, cfg Config) http.Handler {
	o := cfg.options()
	store := o.eventStore
	if store == nil {
		store = NewEventStore(DefaultEventStoreBytes)
	}
	h := sdkmcp.NewStreamableHTTPHandler(func(*http.Request) *sdkmcp.Server { return srv },
		&sdkmcp.StreamableHTTPOptions{SessionTimeout: o.sessionIdle, MaxRequestBodyBytes: o.maxBody, EventStore: store})
	g := newGuard(h)
	g.maxBody, g.origins = o.maxBody, o.origins
	return g
}

// guard sits in front of the SDK's handler. It refuses a sessionless POST that carries
// a request other than initialize (or one of the sessionless protocol's, which name
// their version in _meta): the SDK would open a session for it and answer with an
// error without a JSON-RPC code. And it keeps the response to a request the client
// cancelled (notifications/cancelled) off the wire, as the MCP spec asks: the SDK
// still answers it, on the request's own event stream, and guard drops that event,
// so the stream ends without it.
type guard struct {
	next http.Handler
	// maxBody bounds a POST body; origins are the browser origins allowed besides the
	// server's own.
	maxBody int64
	origins []string
	mu      sync.Mutex
	// inflight maps a session to the requests it has in flight, by raw JSON id.
	inflight map[string]map[string]*flight
}

type flight struct{ cancelled atomic.Bool }

func newGuard(next http.Handler) *guard {
	return &guard{next: next, maxBody: DefaultMaxBodyBytes, inflight: make(map[string]map[string]*flight)}
}

// envelope is what guard reads of a POSTed message.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
		Meta      map[string]any  `json:"_meta"`
	} `json:"params"`
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The MCP specification: servers must validate Origin (DNS rebinding). The SDK
	// checks the Host header of loopback requests only.
	if !origin.Allowed(r, g.origins) {
		http.Error(w, fmt.Sprintf("Forbidden: origin %q is not allowed", r.Header.Get("Origin")), http.StatusForbidden)
		return
	}
	w = &sseRetry{ResponseWriter: w}
	if r.Method != http.MethodPost {
		g.next.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, g.maxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, fmt.Sprintf("request body exceeds %d bytes", g.maxBody), http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "reading the request body: "+err.Error(), http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	var msg envelope
	if json.Unmarshal(body, &msg) != nil {
		// Not one JSON-RPC object (malformed, or a batch): the SDK answers it.
		g.next.ServeHTTP(w, r)
		return
	}
	session := r.Header.Get(sessionHeader)
	isCall := len(msg.ID) > 0 && string(msg.ID) != "null" && msg.Method != ""
	switch {
	case session == "" && isCall && msg.Method != "initialize" && msg.Method != "ping" &&
		msg.Params.Meta["io.modelcontextprotocol/protocolVersion"] == nil:
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
	case session != "" && msg.Method == "notifications/cancelled":
		g.mu.Lock()
		if f := g.inflight[session][idKey(msg.Params.RequestID)]; f != nil {
			f.cancelled.Store(true)
		}
		g.mu.Unlock()
	case session != "" && isCall:
		key, f := idKey(msg.ID), &flight{}
		g.mu.Lock()
		if g.inflight[session] == nil {
			g.inflight[session] = make(map[string]*flight)
		}
		g.inflight[session][key] = f
		g.mu.Unlock()
		defer func() {
			g.mu.Lock()
			delete(g.inflight[session], key)
			if len(g.inflight[session]) == 0 {
				delete(g.inflight, session)
			}
			g.mu.Unlock()
		}()
		w = &dropCancelled{ResponseWriter: w, flight: f}
	}
	g.next.ServeHTTP(w, r)
}

// SSERetry is the reconnection delay every event stream of the handlers announces in
// its first bytes (the SSE retry field): how long a client waits before it reconnects
// (with Last-Event-ID) to a stream that broke.
const SSERetry = time.Second

var retryField = []byte(fmt.Sprintf("retry: %d\n\n", SSERetry.Milliseconds()))

// sseRetry starts every text/event-stream response with the retry field, and flushes
// it, so the headers and the reconnection delay reach the client before the first
// event (the SDK writes a priming event, an id with empty data, on the POST streams of
// protocol 2025-11-25 and later, but no retry field).
type sseRetry struct {
	http.ResponseWriter
	started bool
}

func (s *sseRetry) WriteHeader(code int) {
	if s.started {
		s.ResponseWriter.WriteHeader(code)
		return
	}
	s.started = true
	s.ResponseWriter.WriteHeader(code)
	if code == http.StatusOK && strings.HasPrefix(s.Header().Get("Content-Type"), "text/event-stream") {
		_, _ = s.ResponseWriter.Write(retryField)
		_ = http.NewResponseController(s.ResponseWriter).Flush()
	}
}

func (s *sseRetry) Write(p []byte) (int, error) {
	if !s.started {
		s.WriteHeader(http.StatusOK)
	}
	return s.ResponseWriter.Write(p)
}

func (s *sseRetry) Flush() {
	if !s.started {
		s.WriteHeader(http.StatusOK)
	}
	_ = http.NewResponseController(s.ResponseWriter).Flush()
}

func (s *sseRetry) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// idKey is a JSON-RPC id's compact JSON, so 1 and "1" stay different ids.
func idKey(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// dropCancelled passes a request's event stream through, except the response event
// once the request is cancelled. The SDK writes one whole event per Write.
type dropCancelled struct {
	http.ResponseWriter
	flight *flight
}

func (d *dropCancelled) Write(p []byte) (int, error) {
	if d.flight.cancelled.Load() && isResponseEvent(p) {
		return len(p), nil
	}
	return d.ResponseWriter.Write(p)
}

func (d *dropCancelled) Flush() {
	if f, ok := d.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (d *dropCancelled) Unwrap() http.ResponseWriter { return d.ResponseWriter }

// isResponseEvent reports whether p is a server-sent event whose data is a JSON-RPC
// response (a result or an error, no method).
func isResponseEvent(p []byte) bool {
	i := bytes.Index(p, []byte("data: "))
	if i < 0 || (i > 0 && p[i-1] != '\n') {
		return false
	}
	data := bytes.TrimSpace(p[i+len("data: "):])
	var m struct {
		Method *string          `json:"method"`
		Result *json.RawMessage `json:"result"`
		Error  *json.RawMessage `json:"error"`
	}
	if json.Unmarshal(data, &m) != nil {
		return false
	}
	return m.Method == nil && (m.Result != nil || m.Error != nil)
}
