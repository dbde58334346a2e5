package http

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	nethttp "net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/surface/http/token"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
	"github.com/cmdbridge/cmdbridge/surface/origin"
	"github.com/cmdbridge/cmdbridge/tool"
)

// SchemaVersion is the version of the GET /tools document.
const SchemaVersion = 2

// CallIDHeader carries the id of a POST /tools call; DELETE /calls/{id} cancels it.
const CallIDHeader = "Cmdbridge-Call-Id"

// MCPEventStoreBytes bounds the /mcp events kept for resumption (Last-Event-ID), all
// tokens together; the oldest are dropped first.
const MCPEventStoreBytes = 16 << 20

// DefaultMaxBody bounds a POST /tools body when Config.MaxBodyBytes is zero.
const DefaultMaxBody = 1 << 20

// EventStream is the event hub the server mounts at /events (surface/events' Hub
// satisfies it): any valid token may subscribe, and the verified claims are in the
// request's context ([ClaimsFrom]).
type EventStream interface {
	Handler() nethttp.Handler
}

// Config is what a Server is built from.
type Config struct {
	// Kernel runs every call.
	Kernel *kernel.Kernel
	// Key verifies bearer tokens (token.LoadKey).
	Key []byte
	// Events, when set, is mounted at /events behind the bearer check.
	Events EventStream
	// Publisher receives the turn, approval and command events the server makes. Nil
	// means Events when it can publish (surface/events' Hub can). With neither, turns
	// still run but publish nothing, and POST /commands is not mounted.
	Publisher Publisher
	// OnEventError is told about events that could not be published (nil: ignored). A
	// failed publish never changes a call's result.
	OnEventError func(error)
	// MaxBodyBytes bounds the body of every request but /mcp's (0: DefaultMaxBody).
	MaxBodyBytes int64
	// MaxMCPBodyBytes bounds an /mcp request body (0: mcp.DefaultMaxBodyBytes).
	MaxMCPBodyBytes int64
	// MaxPendingCommands and MaxPendingCommandBytes bound one subject's unacknowledged
	// POST /commands, when the publisher can tell them (0: DefaultMaxPendingCommands,
	// DefaultMaxPendingCommandBytes).
	MaxPendingCommands, MaxPendingCommandBytes int
	// Limits bound the time and connections clients may hold of [Server.Serve].
	Limits Limits
	// AllowedOrigins are the browser origins ("https://ui.example.com", or "*" for any)
	// served besides the server's own: a request with another Origin header is 403.
	AllowedOrigins []string
	// Now is the clock tokens are checked against (nil: time.Now).
	Now func() time.Time
	// MCP configures the /mcp servers (implementation name and version…); its body
	// limit, origins and schema dialect are this Config's (MaxMCPBodyBytes,
	// AllowedOrigins, SchemaDialect), and its event store, when it names none, one the
	// server shares between tokens.
	MCP mcp.Config
	// PublicURL is the origin clients reach the server at (https://mcp.example.com),
	// named in the Protected Resource Metadata and in 401 challenges. Empty: the scheme
	// and Host of each request.
	PublicURL string
	// ResourceDocumentation, when set, is the resource_documentation URL of the
	// Protected Resource Metadata.
	ResourceDocumentation string
	// SchemaDialect is the form in which GET /tools and /mcp's tools/list send input
	// schemas (default tool.DialectPortable; docs/schemas.md). Calls are validated
	// against the full schema whatever it is.
	SchemaDialect tool.Dialect
}

// Server is the conductor sidecar's HTTP handler. It is safe for concurrent use.
type Server struct {
	cfg  Config
	k    *kernel.Kernel
	mux  *nethttp.ServeMux
	base context.Context
	stop context.CancelFunc

	tools    []listed        // enabled tools, sorted by name
	enabled  map[string]int  // canonical name → index in tools
	lists    sync.Map        // glob set → *toolList
	nLists   atomic.Int64    // entries in lists, bounded by maxCached
	mcps     mcpCache        // token id → /mcp handler
	calls    sync.Map        // call id → *running
	turns    sync.Map        // subject NUL turn id → *running
	pub      Publisher       // nil: no events
	readOnly map[string]bool // canonical name → the tool's ReadOnlyHint
	strict   map[string]bool // canonical name → listed in OpenAI's strict form
	idBase   string          // random per server, so ids never repeat across restarts
	idSeq    atomic.Uint64   // call ids
	hidden   []byte          // the one 404 body
	routes   []string        // the mux's patterns, in registration order: what a 404 lists
	metrics  struct{ active, conns atomic.Int64 }
	httpMu   sync.Mutex
	http     *nethttp.Server // set by Serve
}

// listed is one tool of GET /tools, its JSON encoded once.
type listed struct {
	name string
	json json.RawMessage
}

// ToolEntry is one tool in the GET /tools document.
type ToolEntry struct {
	Name        string `json:"name"`
	Pack        string `json:"pack"`
	Domain      string `json:"domain"`
	Description string `json:"description"`
	// Scope is "read" for a read-only tool, "write" otherwise: the scope a token needs
	// on the workspace (or on the tool's path inputs) to call it.
	Scope             string   `json:"scope"`
	RequiredApprovals []string `json:"required_approvals"`
	InputSchema       any      `json:"input_schema"`
	// Strict: input_schema is OpenAI's strict form of the full schema (the
	// openai-strict dialect); a null in a call's input means "not given".
	Strict       bool             `json:"openai_strict,omitempty"`
	OutputSchema any              `json:"output_schema"`
	Annotations  tool.Annotations `json:"annotations"`
}

// running is one POST /tools call in flight.
type running struct {
	subject string
	cancel  context.CancelFunc
}

const maxCached = 1024

// New builds the server: the tool list is read from the kernel once, keeping the tools
// its governance lets run.
func New(cfg Config) (*Server, error) {
	if cfg.Kernel == nil {
		return nil, errors.New("surface/http: no kernel")
	}
	if len(cfg.Key) < 16 {
		return nil, errors.New("surface/http: token key shorter than 16 bytes")
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBody
	}
	if cfg.MaxMCPBodyBytes <= 0 {
		cfg.MaxMCPBodyBytes = mcp.DefaultMaxBodyBytes
	}
	if cfg.MaxPendingCommands <= 0 {
		cfg.MaxPendingCommands = DefaultMaxPendingCommands
	}
	if cfg.MaxPendingCommandBytes <= 0 {
		cfg.MaxPendingCommandBytes = DefaultMaxPendingCommandBytes
	}
	for _, o := range cfg.AllowedOrigins {
		if !origin.Valid(o) {
			return nil, fmt.Errorf("surface/http: allowed origin %q is not scheme://host[:port] or *", o)
		}
	}
	cfg.Limits = cfg.Limits.withDefaults()
	var err error
	if cfg.PublicURL, err = checkPublicURL(cfg.PublicURL); err != nil {
		return nil, err
	}
	// The /mcp handlers check the body and the origin again, for hosts that mount them
	// alone; with the same settings.
	// One event store for every token's handler (session ids keep their events apart),
	// so resumable streams cost at most MCPEventStoreBytes however many tokens connect;
	// an event store in cfg.MCP replaces it.
	if cfg.MCP.EventStore == nil {
		cfg.MCP.EventStore = mcp.NewEventStore(MCPEventStoreBytes)
	}
	if cfg.SchemaDialect == "" {
		cfg.SchemaDialect = tool.DialectPortable
	}
	cfg.MCP.MaxBodyBytes, cfg.MCP.SchemaDialect = cfg.MaxMCPBodyBytes, cfg.SchemaDialect
	cfg.MCP.AllowedOrigins = append(append([]string(nil), cfg.MCP.AllowedOrigins...), cfg.AllowedOrigins...)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Server{cfg: cfg, k: cfg.Kernel, enabled: map[string]int{}, readOnly: map[string]bool{}, strict: map[string]bool{}}
	s.pub = cfg.Publisher
	if p, ok := cfg.Events.(Publisher); ok && s.pub == nil {
		s.pub = p
	}
	s.base, s.stop = context.WithCancel(context.Background())
	var seed [6]byte
	_, _ = rand.Read(seed[:])
	s.idBase = "http-" + hex.EncodeToString(seed[:]) + "-"
	manifest, err := cfg.Kernel.ManifestTools()
	if err != nil {
		return nil, fmt.Errorf("surface/http: %w", err)
	}
	specs := map[string]tool.Spec{}
	for _, spec := range cfg.Kernel.Tools() {
		specs[spec.Name] = spec
	}
	for _, m := range manifest {
		if m.Governance != "enabled" {
			continue // disabled or outside the allowlist: nobody may see it
		}
		// The input schema and description as the dialect sends them (tool.Wire).
		w, err := tool.Wire(specs[m.Name], cfg.SchemaDialect)
		if err != nil {
			return nil, fmt.Errorf("surface/http: tool %s: %w", m.Name, err)
		}
		var in any = w.InputSchema
		if w.InputSchema == nil {
			in = m.InputSchema
		}
		scope := "write"
		if m.Annotations.ReadOnlyHint {
			scope = "read"
		}
		b, err := json.Marshal(ToolEntry{
			Name: m.Name, Pack: cfg.Kernel.Pack(), Domain: m.Domain, Description: w.Description,
			Scope: scope, RequiredApprovals: m.RequiredApprovals, Strict: w.Strict,
			InputSchema: in, OutputSchema: m.OutputSchema, Annotations: m.Annotations,
		})
		if err != nil {
			return nil, fmt.Errorf("surface/http: tool %s: %w", m.Name, err)
		}
		s.enabled[m.Name] = len(s.tools)
		s.readOnly[m.Name] = m.Annotations.ReadOnlyHint
		s.strict[m.Name] = w.Strict
		s.tools = append(s.tools, listed{name: m.Name, json: b})
	}
	s.hidden = failureBody(tool.CodeToolNotFound, hiddenMessage)
	s.mcps.entries = map[string]*mcpEntry{}

	s.mux = nethttp.NewServeMux()
	s.handle("GET /healthz", s.healthz)
	s.handle("GET "+ResourceMetadataPath, s.resourceMetadata)
	s.handle("GET "+ResourceMetadataPath+"/mcp", s.resourceMetadata)
	s.handle("GET /tools", s.authed(s.listTools))
	s.handle("POST /tools/{name}", s.authed(s.callTool))
	s.handle("DELETE /calls/{id}", s.authed(s.cancelCall))
	s.handle("POST /turns", s.authed(s.runTurn))
	s.handle("DELETE /turns/{id}", s.authed(s.cancelTurn))
	if s.pub != nil {
		s.handle("POST /commands", s.authed(s.postCommand))
	}
	s.handle("/mcp", s.authed(s.serveMCP))
	if cfg.Events != nil {
		events := cfg.Events.Handler()
		// The routes of the events handler, by method, so a wrong method or path is
		// answered here as every other one is.
		serveEvents := s.authed(func(w nethttp.ResponseWriter, r *nethttp.Request, c token.Claims) {
			// A stream lasts no longer than the token that opened it.
			ctx, cancel := s.untilExpiry(eventsFor(r, c), c)
			defer cancel()
			events.ServeHTTP(w, r.WithContext(ctx))
		})
		s.handle("GET /events", serveEvents)
		s.handle("POST /events/ack", serveEvents)
	}
	return s, nil
}

// ServeHTTP routes a request. A request whose Origin header is not allowed is 403
// (surface/origin). Every write of the response first extends the connection's write
// deadline by Limits.WriteTimeout.
func (s *Server) ServeHTTP(w nethttp.ResponseWriter, r *nethttp.Request) {
	if !origin.Allowed(r, s.cfg.AllowedOrigins) {
		writeFailure(w, nethttp.StatusForbidden, "FORBIDDEN", fmt.Sprintf("origin %q is not allowed; serve it with --allow-origin", r.Header.Get("Origin")))
		return
	}
	if d := s.cfg.Limits.WriteTimeout; d > 0 {
		dw := &deadlineWriter{ResponseWriter: w, rc: nethttp.NewResponseController(w), d: d}
		defer dw.extend() // for what net/http writes once the handler returns
		w = dw
	}
	if _, pattern := s.mux.Handler(r); pattern == "" {
		s.unrouted(w, r)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// handle registers a route on the mux and remembers its pattern for unrouted's answers.
func (s *Server) handle(pattern string, h nethttp.HandlerFunc) {
	s.mux.HandleFunc(pattern, h)
	s.routes = append(s.routes, pattern)
}

// unrouted answers a request no route matches in the tool.Output shape, as every other
// refusal: 404 NOT_FOUND listing the endpoints for an unknown path, 405
// METHOD_NOT_ALLOWED with the Allow header the mux computed for a path served under
// other methods. The mux decides which (its redirects pass through unchanged); only the
// plain-text body it would write is replaced.
func (s *Server) unrouted(w nethttp.ResponseWriter, r *nethttp.Request) {
	rec := &headerRecorder{header: nethttp.Header{}}
	s.mux.ServeHTTP(rec, r)
	switch rec.status {
	case nethttp.StatusNotFound:
		writeFailure(w, nethttp.StatusNotFound, tool.CodeNotFound, fmt.Sprintf(
			"no endpoint %s %s; the endpoints are %s (docs/http.md)", r.Method, r.URL.Path, strings.Join(s.routes, ", ")))
	case nethttp.StatusMethodNotAllowed:
		allow := rec.header.Get("Allow")
		w.Header().Set("Allow", allow)
		writeFailure(w, nethttp.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", fmt.Sprintf(
			"%s does not answer %s; send %s", r.URL.Path, r.Method, strings.Join(strings.Split(allow, ", "), " or ")))
	default:
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.status)
		_, _ = w.Write(rec.body.Bytes())
	}
}

// headerRecorder keeps what the mux answers an unrouted request: status, headers, body.
type headerRecorder struct {
	header nethttp.Header
	status int
	body   bytes.Buffer
}

func (h *headerRecorder) Header() nethttp.Header { return h.header }

func (h *headerRecorder) WriteHeader(status int) {
	if h.status == 0 {
		h.status = status
	}
}

func (h *headerRecorder) Write(b []byte) (int, error) {
	h.WriteHeader(nethttp.StatusOK)
	return h.body.Write(b)
}

// Close cancels every call in flight (each ends CANCELLED, with its receipt) and makes
// later calls end cancelled before dispatch. Shut the net/http server down after it.
func (s *Server) Close() { s.stop() }

// ToolNames lists the canonical names of the tools governance lets run, sorted: what a
// workspace announces to a control plane (each token still sees only its globs).
func (s *Server) ToolNames() []string {
	out := make([]string, len(s.tools))
	for i, t := range s.tools {
		out[i] = t.name
	}
	return out
}

// Active is the number of POST /tools calls in flight.
func (s *Server) Active() int { return int(s.metrics.active.Load()) }

type claimsKey struct{}

// ClaimsFrom returns the verified token claims of an authenticated request.
func ClaimsFrom(ctx context.Context) (token.Claims, bool) {
	c, ok := ctx.Value(claimsKey{}).(token.Claims)
	return c, ok
}

// Caller is the kernel caller a token's claims make: its subject and scopes.
func Caller(c token.Claims) kernel.Caller {
	// Tools never nil: a token without tool globs may call none.
	return kernel.Caller{Subject: c.Subject, Read: c.Read, Write: c.Write, Tools: append([]string{}, c.Tools...)}
}

// authed checks the bearer token and hands its claims on; anything else is 401.
func (s *Server) authed(next func(nethttp.ResponseWriter, *nethttp.Request, token.Claims)) nethttp.HandlerFunc {
	return func(w nethttp.ResponseWriter, r *nethttp.Request) {
		raw, ok := bearer(r.Header.Get("Authorization"))
		if !ok {
			s.challenge(w, r, "")
			writeFailure(w, nethttp.StatusUnauthorized, "UNAUTHORIZED", "a bearer token is required")
			return
		}
		claims, err := token.Verify(s.cfg.Key, raw, s.cfg.Now())
		if err != nil {
			s.challenge(w, r, "the bearer token is invalid or expired")
			writeFailure(w, nethttp.StatusUnauthorized, "UNAUTHORIZED", "the bearer token is invalid or expired")
			return
		}
		authenticated(r)
		// The whole body is read here, within the size limit and Limits.BodyTimeout. Once
		// it is in, net/http lifts the read deadline (its background read, which sees a
		// client going away, runs without one), so a long call or a stream is not cut.
		limit := s.cfg.MaxBodyBytes
		if r.URL.Path == "/mcp" {
			limit = s.cfg.MaxMCPBodyBytes
		}
		body, ok := s.readBodyWithin(w, r, limit)
		if !ok {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		defer working(r)()
		next(w, r.WithContext(context.WithValue(r.Context(), claimsKey{}, claims)), claims)
	}
}

// untilExpiry is ctx ending when c expires by the server's clock: what a long-lived
// response (an event stream) is served under, so that it ends with its token rather than
// outliving it.
func (s *Server) untilExpiry(ctx context.Context, c token.Claims) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, c.Expires().Sub(s.cfg.Now()))
}

func bearer(h string) (string, bool) {
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimSpace(tok)
	return tok, tok != ""
}

func (s *Server) healthz(w nethttp.ResponseWriter, _ *nethttp.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = io.WriteString(w, `{"ok":true}`+"\n")
}

// toolList is one token's GET /tools document and its strong ETag.
type toolList struct {
	body []byte
	etag string
}

func (s *Server) listTools(w nethttp.ResponseWriter, r *nethttp.Request, c token.Claims) {
	l := s.list(c)
	h := w.Header()
	h.Set("ETag", l.etag)
	h.Set("Cache-Control", "no-cache")
	h.Set("Vary", "Authorization")
	if etagMatches(r.Header.Get("If-None-Match"), l.etag) {
		w.WriteHeader(nethttp.StatusNotModified)
		return
	}
	h.Set("Content-Type", "application/json")
	_, _ = w.Write(l.body)
}

// list builds (or finds) the document for a token's globs; tokens with the same globs
// share it.
func (s *Server) list(c token.Claims) *toolList {
	key := strings.Join(c.Tools, "\x00")
	if v, ok := s.lists.Load(key); ok {
		return v.(*toolList)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"schema_version":%d,"tools":[`, SchemaVersion)
	n := 0
	for _, t := range s.tools {
		if !c.Sees(t.name) {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.Write(t.json)
		n++
	}
	b.WriteString("]}\n")
	sum := sha256.Sum256(b.Bytes())
	l := &toolList{body: b.Bytes(), etag: `"` + hex.EncodeToString(sum[:16]) + `"`}
	if s.nLists.Load() < maxCached {
		if _, loaded := s.lists.LoadOrStore(key, l); !loaded {
			s.nLists.Add(1)
		}
	}
	return l
}

// etagMatches implements If-None-Match for strong tags: a list, or "*".
func etagMatches(header, etag string) bool {
	if header == "" {
		return false
	}
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || t == etag || strings.TrimPrefix(t, "W/") == etag {
			return true
		}
	}
	return false
}

// visible resolves a spelling to the canonical name of a tool this token may see.
func (s *Server) visible(spelling string, c token.Claims) (string, bool) {
	name, ok := s.k.Resolve(spelling)
	if !ok {
		return "", false
	}
	if _, ok := s.enabled[name]; !ok || !c.Sees(name) {
		return "", false
	}
	return name, true
}

func (s *Server) callTool(w nethttp.ResponseWriter, r *nethttp.Request, c token.Claims) {
	name, ok := s.visible(r.PathValue("name"), c)
	if !ok {
		s.notFound(w)
		return
	}
	body, ok := s.readBody(w, r)
	if !ok {
		return
	}
	input, stdin, refused := parseCallBody(r.URL.Query().Get(StdinQuery), body)
	if refused != nil {
		writeRefusal(w, nethttp.StatusBadRequest, refused)
		return
	}
	if s.strict[name] {
		input = tool.DropNulls(input) // listed in OpenAI's strict form: null is "not given"
	}
	// The status is 200 whatever the tool does, so the headers go out as soon as the call
	// has its id: a client learns it while the call runs and can cancel it.
	out := s.RunCall(r.Context(), s.checked(name, c, input, stdin), func(id string) {
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Cache-Control", "no-store")
		h.Set(CallIDHeader, id)
		w.WriteHeader(nethttp.StatusOK)
		if f, ok := w.(nethttp.Flusher); ok {
			f.Flush()
		}
	})
	_, _ = w.Write(out)
}

// CheckedCall is a tool call that passed the transport's checks — a verified token, a
// tool that token may see, a well-formed body — and is ready for the kernel. Only
// [Server.CheckCall] makes one, so every transport applies the same checks.
type CheckedCall struct {
	// Name is the tool's canonical name.
	Name string
	// ReadOnly is the tool's read-only annotation: a call that cannot write.
	ReadOnly bool
	// Claims are the verified token's claims; the kernel caller is made from them.
	Claims token.Claims
	// Input is the call's input object and Stdin its standard input (nil: none).
	Input json.RawMessage
	Stdin []byte
}

func (s *Server) checked(name string, c token.Claims, input json.RawMessage, stdin []byte) CheckedCall {
	return CheckedCall{Name: name, ReadOnly: s.readOnly[name], Claims: c, Input: input, Stdin: stdin}
}

// Authenticate verifies a raw bearer token (without the "Bearer " prefix) exactly as
// every HTTP request's Authorization header is verified.
func (s *Server) Authenticate(raw string) (token.Claims, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return token.Claims{}, errors.New("a bearer token is required")
	}
	return token.Verify(s.cfg.Key, raw, s.cfg.Now())
}

// CheckCall is POST /tools/{name}'s checks for another transport (surface/broker): the
// tool spelling must name a tool c may see, and body is what POST /tools takes — the
// input object, or with wrapped the {"input": {...}, "stdin": "..."} wrapper of
// ?stdin=1. On refusal it returns the HTTP status POST /tools would answer and the
// tool.Output body (404 TOOL_NOT_FOUND for unknown and hidden tools alike, 400
// INVALID_INPUT, 413 TOO_LARGE); nothing reached the kernel.
func (s *Server) CheckCall(c token.Claims, spelling string, body []byte, wrapped bool) (CheckedCall, int, []byte) {
	name, ok := s.visible(spelling, c)
	if !ok {
		return CheckedCall{}, nethttp.StatusNotFound, s.hidden
	}
	if int64(len(body)) > s.cfg.MaxBodyBytes {
		return CheckedCall{}, nethttp.StatusRequestEntityTooLarge,
			failureBody(tool.CodeTooLarge, fmt.Sprintf("request body exceeds %d bytes", s.cfg.MaxBodyBytes))
	}
	mode := ""
	if wrapped {
		mode = "1"
	}
	input, stdin, refused := parseCallBody(mode, body)
	if refused != nil {
		return CheckedCall{}, nethttp.StatusBadRequest, refusalBody(refused)
	}
	return s.checked(name, c, input, stdin), nethttp.StatusOK, nil
}

// RunCall runs a checked call through the kernel, non-interactively, as the token's
// caller, and returns the tool.Output as the JSON body POST /tools answers (one line).
// started, when not nil, is told the call id before the kernel runs (DELETE
// /calls/{id} by the same subject cancels it). ctx ending, or Close, cancels the call.
func (s *Server) RunCall(ctx context.Context, cc CheckedCall, started func(id string)) []byte {
	id := s.idBase + fmt.Sprint(s.idSeq.Add(1))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	unhook := context.AfterFunc(s.base, cancel) // Close cancels too
	defer unhook()
	s.calls.Store(id, &running{subject: cc.Claims.Subject, cancel: cancel})
	defer s.calls.Delete(id)
	s.metrics.active.Add(1)
	defer s.metrics.active.Add(-1)
	if started != nil {
		started(id)
	}
	res := s.k.Call(ctx, kernel.Request{Tool: cc.Name, Input: cc.Input, Caller: Caller(cc.Claims), Interactive: false, Stdin: cc.Stdin})
	out, err := json.Marshal(res.Output)
	if err != nil {
		// Data a native tool returned that JSON cannot hold: still a tool failure.
		return failureBody(tool.CodeInternal, fmt.Sprintf("%s: output is not JSON: %v", cc.Name, err))
	}
	return append(out, '\n')
}

// readBody reads a request body within the size limit, answering 413 or 400 itself
// when it cannot.
func (s *Server) readBody(w nethttp.ResponseWriter, r *nethttp.Request) ([]byte, bool) {
	return s.readBodyWithin(w, r, s.cfg.MaxBodyBytes)
}

func (s *Server) readBodyWithin(w nethttp.ResponseWriter, r *nethttp.Request, limit int64) ([]byte, bool) {
	body, err := io.ReadAll(nethttp.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var tooBig *nethttp.MaxBytesError
		if errors.As(err, &tooBig) {
			writeFailure(w, nethttp.StatusRequestEntityTooLarge, tool.CodeTooLarge, fmt.Sprintf("request body exceeds %d bytes", limit))
			return nil, false
		}
		writeFailure(w, nethttp.StatusBadRequest, tool.CodeInvalidInput, "request body could not be read")
		return nil, false
	}
	return body, true
}

// objectBody checks a call's body: empty means {}, anything else must be one JSON object.
func objectBody(body []byte) (json.RawMessage, *tool.Error) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return json.RawMessage(`{}`), nil
	}
	if why := tool.DescribeJSON(trimmed); why != "" {
		return nil, invalid("request body is not a JSON object: %s", why)
	}
	return json.RawMessage(trimmed), nil
}

// invalid is an INVALID_INPUT refusal of a request (400).
func invalid(format string, args ...any) *tool.Error {
	return tool.Refuse(tool.CodeInvalidInput, format, args...)
}

// notFound is the one answer for unknown and hidden tools: same status, same headers,
// same bytes, and no Date header, so nothing tells them apart.
func (s *Server) notFound(w nethttp.ResponseWriter) {
	h := w.Header()
	h["Date"] = nil
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", fmt.Sprint(len(s.hidden)))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(nethttp.StatusNotFound)
	_, _ = w.Write(s.hidden)
}

func (s *Server) cancelCall(w nethttp.ResponseWriter, r *nethttp.Request, c token.Claims) {
	id := r.PathValue("id")
	v, ok := s.calls.Load(id)
	if !ok || v.(*running).subject != c.Subject {
		// Another subject's call is as absent as a finished one.
		writeFailure(w, nethttp.StatusNotFound, tool.CodeNotFound, "no such call in flight")
		return
	}
	v.(*running).cancel()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(nethttp.StatusAccepted)
	_ = json.NewEncoder(w).Encode(map[string]any{"call_id": id, "cancelling": true})
}

func failureBody(code, message string) []byte { return refusalBody(tool.Refuse(code, "%s", message)) }

// refusalBody is a refusal's Output as a response body (one line).
func refusalBody(refused *tool.Error) []byte {
	b, _ := json.Marshal(refused.Output())
	return append(b, '\n')
}

// writeFailure answers a transport-level refusal in the tool.Output shape.
func writeFailure(w nethttp.ResponseWriter, status int, code, message string) {
	writeRefusal(w, status, tool.Refuse(code, "%s", message))
}

// writeRefusal answers refused with status, in the tool.Output shape.
func writeRefusal(w nethttp.ResponseWriter, status int, refused *tool.Error) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(refusalBody(refused))
}
