package http

import (
	"context"
	"errors"
	"net"
	nethttp "net/http"
	"sync"
	"syscall"
	"time"
)

// Defaults of Limits; docs/http.md explains each.
const (
	DefaultHeaderTimeout   = 10 * time.Second
	DefaultBodyTimeout     = 30 * time.Second
	DefaultWriteTimeout    = 30 * time.Second
	DefaultIdleTimeout     = 30 * time.Second
	DefaultMaxConns        = 512
	DefaultMaxConnsPerAddr = 32
)

// Limits bound what clients can hold of a server started with [Server.Serve]: how long
// each phase of a request may take and how many connections may be open. A zero field
// takes its default; a negative one switches that bound off.
//
// A long call or an event stream is never cut by these: once an authenticated request's
// body has arrived, its read deadline is lifted (a client that goes away still cancels
// its call), and WriteTimeout bounds each write of the response, not the response.
type Limits struct {
	// HeaderTimeout bounds reading a request's headers (DefaultHeaderTimeout).
	HeaderTimeout time.Duration
	// BodyTimeout bounds reading a whole request, headers and body (DefaultBodyTimeout).
	BodyTimeout time.Duration
	// WriteTimeout bounds each write of a response, so a client that stops reading is
	// cut off (DefaultWriteTimeout).
	WriteTimeout time.Duration
	// IdleTimeout closes a keep-alive connection that carries no request for this long
	// (DefaultIdleTimeout).
	IdleTimeout time.Duration
	// MaxConns bounds the open connections (DefaultMaxConns, lowered to half the
	// process's open-file limit when that is smaller, so descriptors stay for the
	// kernel's files and the processes calls start).
	MaxConns int
	// MaxConnsPerAddr bounds the connections of one client IP address that have not
	// carried an authenticated request (DefaultMaxConnsPerAddr).
	MaxConnsPerAddr int
}

// withDefaults fills the zero fields.
func (l Limits) withDefaults() Limits {
	def := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	def(&l.HeaderTimeout, DefaultHeaderTimeout)
	def(&l.BodyTimeout, DefaultBodyTimeout)
	def(&l.WriteTimeout, DefaultWriteTimeout)
	def(&l.IdleTimeout, DefaultIdleTimeout)
	if l.MaxConns == 0 {
		l.MaxConns = DefaultMaxConns
		var rl syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err == nil && rl.Cur/2 < uint64(l.MaxConns) {
			l.MaxConns = max(int(rl.Cur/2), 1)
		}
	}
	if l.MaxConnsPerAddr == 0 {
		l.MaxConnsPerAddr = DefaultMaxConnsPerAddr
	}
	return l
}

func positive(d time.Duration) time.Duration { return max(d, 0) }

// Serve accepts connections on ln and serves them under the server's Limits until
// Shutdown (it then returns net/http.ErrServerClosed). It may be called once.
func (s *Server) Serve(ln net.Listener) error {
	l := s.cfg.Limits
	cl := &connLimiter{
		Listener: ln, max: l.MaxConns, maxPerAddr: l.MaxConnsPerAddr,
		conns: map[*trackedConn]struct{}{}, perAddr: map[string]int{},
		open: func(delta int) { s.metrics.conns.Add(int64(delta)) },
	}
	hs := &nethttp.Server{
		Handler:           s,
		ReadHeaderTimeout: positive(l.HeaderTimeout),
		ReadTimeout:       positive(l.BodyTimeout),
		WriteTimeout:      positive(l.WriteTimeout),
		IdleTimeout:       positive(l.IdleTimeout),
		MaxHeaderBytes:    64 << 10,
		ConnState:         cl.connState,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			if tc, ok := c.(*trackedConn); ok {
				return context.WithValue(ctx, connKey{}, tc)
			}
			return ctx
		},
	}
	if l.IdleTimeout < 0 {
		hs.IdleTimeout = -1 // net/http would fall back to ReadTimeout
	}
	s.httpMu.Lock()
	if s.http != nil {
		s.httpMu.Unlock()
		return errors.New("surface/http: Serve called twice")
	}
	s.http = hs
	s.httpMu.Unlock()
	return hs.Serve(cl)
}

// Shutdown stops Serve: the listener closes, idle connections close, and it waits for
// requests in flight until ctx ends, then closes what is left. Call Close first so
// calls and streams in flight end.
func (s *Server) Shutdown(ctx context.Context) error {
	s.httpMu.Lock()
	hs := s.http
	s.httpMu.Unlock()
	if hs == nil {
		return nil
	}
	err := hs.Shutdown(ctx)
	if err != nil {
		_ = hs.Close()
	}
	return err
}

// OpenConns is the number of connections Serve holds open.
func (s *Server) OpenConns() int { return int(s.metrics.conns.Load()) }

type connKey struct{}

// connLimiter is the listener Serve accepts on. It counts the open connections and,
// when a new one would pass a cap, closes an idle or stalled one to make room, oldest
// first: a keep-alive connection waiting for a request, then one whose request headers
// have not arrived, then one whose request is not working yet (unauthenticated, or an
// authenticated body still arriving). A connection whose authenticated request is
// running (its body read) is never closed for room; when every connection is one, the
// new connection is closed instead. So idle and slow clients cannot keep a caller with
// a token out: each new connection displaces the stalest of them.
//
// The per-address cap counts only connections that have not carried an authenticated
// request, and makes room among that address's own: one unauthenticated address holds
// at most MaxConnsPerAddr descriptors, whatever it does.
type connLimiter struct {
	net.Listener
	max, maxPerAddr int

	mu      sync.Mutex
	conns   map[*trackedConn]struct{}
	perAddr map[string]int  // unauthenticated connections per client IP
	tick    uint64          // orders state changes without a clock
	open    func(delta int) // told of every connection counted in and out
}

// trackedConn is one accepted connection; its fields are the limiter's, under its mu.
type trackedConn struct {
	net.Conn
	l      *connLimiter
	ip     string
	state  nethttp.ConnState
	since  uint64 // tick of the last state change
	authed bool   // a request on it carried a valid token
	busy   bool   // an authenticated request on it is running (its body read)
	gone   bool   // counted out
}

func (c *trackedConn) Close() error {
	err := c.Conn.Close()
	c.l.remove(c)
	return err
}

// CloseWrite half-closes a TCP connection, as net/http does before closing one whose
// request it refused, so the client reads the answer instead of a reset.
func (c *trackedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

func (l *connLimiter) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if tc := l.admit(c); tc != nil {
			return tc, nil
		}
		_ = c.Close()
	}
}

// admit counts c in, closing a stale connection to make room when a cap is reached,
// or returns nil when there is no room.
func (l *connLimiter) admit(c net.Conn) *trackedConn {
	ip := c.RemoteAddr().String()
	if h, _, err := net.SplitHostPort(ip); err == nil {
		ip = h
	}
	var victims []*trackedConn
	l.mu.Lock()
	if l.maxPerAddr > 0 && l.perAddr[ip] >= l.maxPerAddr {
		if v := l.stalest(func(o *trackedConn) bool { return o.ip == ip && !o.authed }); v != nil {
			l.countOut(v)
			victims = append(victims, v)
		}
	}
	if l.max > 0 && len(l.conns) >= l.max {
		if v := l.stalest(func(*trackedConn) bool { return true }); v != nil {
			l.countOut(v)
			victims = append(victims, v)
		}
	}
	full := (l.max > 0 && len(l.conns) >= l.max) || (l.maxPerAddr > 0 && l.perAddr[ip] >= l.maxPerAddr)
	var tc *trackedConn
	if !full {
		l.tick++
		tc = &trackedConn{Conn: c, l: l, ip: ip, state: nethttp.StateNew, since: l.tick}
		l.conns[tc] = struct{}{}
		l.perAddr[ip]++
		l.open(1)
	}
	l.mu.Unlock()
	for _, v := range victims {
		_ = v.Conn.Close()
	}
	return tc
}

// stalest is the connection to close for room among those ok accepts: idle first, then
// new, then active but not busy; oldest first within each. Busy ones never.
func (l *connLimiter) stalest(ok func(*trackedConn) bool) *trackedConn {
	rank := func(c *trackedConn) int {
		switch {
		case c.state == nethttp.StateIdle:
			return 0
		case c.state == nethttp.StateNew:
			return 1
		case !c.busy:
			return 2
		}
		return -1
	}
	var best *trackedConn
	for c := range l.conns {
		r := rank(c)
		if r < 0 || !ok(c) {
			continue
		}
		if best == nil || r < rank(best) || (r == rank(best) && c.since < best.since) {
			best = c
		}
	}
	return best
}

// countOut removes c from the counts once; l.mu is held.
func (l *connLimiter) countOut(c *trackedConn) {
	if c.gone {
		return
	}
	c.gone = true
	delete(l.conns, c)
	if !c.authed {
		if l.perAddr[c.ip]--; l.perAddr[c.ip] <= 0 {
			delete(l.perAddr, c.ip)
		}
	}
	l.open(-1)
}

func (l *connLimiter) remove(c *trackedConn) {
	l.mu.Lock()
	l.countOut(c)
	l.mu.Unlock()
}

// connState follows net/http's view of each connection.
func (l *connLimiter) connState(nc net.Conn, st nethttp.ConnState) {
	c, ok := nc.(*trackedConn)
	if !ok {
		return
	}
	if st == nethttp.StateClosed || st == nethttp.StateHijacked {
		l.remove(c)
		return
	}
	l.mu.Lock()
	l.tick++
	c.state, c.since = st, l.tick
	if st != nethttp.StateActive {
		c.busy = false
	}
	l.mu.Unlock()
}

// authenticated marks the request's connection as having carried a valid token: it no
// longer counts against its address's cap.
func authenticated(r *nethttp.Request) {
	c, ok := r.Context().Value(connKey{}).(*trackedConn)
	if !ok {
		return
	}
	l := c.l
	l.mu.Lock()
	if !c.authed && !c.gone {
		if l.perAddr[c.ip]--; l.perAddr[c.ip] <= 0 {
			delete(l.perAddr, c.ip)
		}
	}
	c.authed = true
	l.mu.Unlock()
}

// working marks the request's connection busy while its authenticated request runs;
// the returned func marks it done.
func working(r *nethttp.Request) func() {
	c, ok := r.Context().Value(connKey{}).(*trackedConn)
	if !ok {
		return func() {}
	}
	l := c.l
	l.mu.Lock()
	c.busy = true
	l.mu.Unlock()
	return func() {
		l.mu.Lock()
		c.busy = false
		l.mu.Unlock()
	}
}

// deadlineWriter extends the connection's write deadline before every write, so
// WriteTimeout bounds each write (a client that stops reading) and never a whole
// response: a call that runs for minutes, or an event stream, keeps its connection.
type deadlineWriter struct {
	nethttp.ResponseWriter
	rc *nethttp.ResponseController
	d  time.Duration
}

func (w *deadlineWriter) extend() { _ = w.rc.SetWriteDeadline(time.Now().Add(w.d)) }

func (w *deadlineWriter) WriteHeader(code int) {
	w.extend()
	w.ResponseWriter.WriteHeader(code)
}

func (w *deadlineWriter) Write(p []byte) (int, error) {
	w.extend()
	return w.ResponseWriter.Write(p)
}

func (w *deadlineWriter) Flush() {
	w.extend()
	_ = w.rc.Flush()
}

func (w *deadlineWriter) Unwrap() nethttp.ResponseWriter { return w.ResponseWriter }
