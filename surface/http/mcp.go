package http

import (
	"context"
	nethttp "net/http"
	"sync"
	"time"

	"github.com/cmdbridge/cmdbridge/surface/http/token"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
	"github.com/cmdbridge/cmdbridge/tool"
)

// mcpCache holds one MCP handler per token: the token's caller and tool visibility are
// fixed in its server, and its sessions are unknown to every other token's handler, so
// a session id leaked to another bearer is useless to it.
type mcpCache struct {
	mu      sync.Mutex
	entries map[string]*mcpEntry
}

type mcpEntry struct {
	handler nethttp.Handler
	expires time.Time
}

const maxMCPHandlers = 256

func (s *Server) serveMCP(w nethttp.ResponseWriter, r *nethttp.Request, c token.Claims) {
	h, err := s.mcpHandler(c)
	if err != nil {
		writeFailure(w, nethttp.StatusInternalServerError, tool.CodeInternal, err.Error())
		return
	}
	// Close cancels MCP calls in flight too.
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	if r.Method == nethttp.MethodGet {
		// The session's server-to-client stream carries no call: like GET /events, it
		// lasts no longer than the token that opened it. (A POST's call, checked when
		// it started, runs on as POST /tools's does.)
		var stop context.CancelFunc
		ctx, stop = s.untilExpiry(ctx, c)
		defer stop()
	}
	defer context.AfterFunc(s.base, cancel)()
	h.ServeHTTP(w, r.WithContext(ctx))
}

// mcpHandler finds or builds the handler of one token.
func (s *Server) mcpHandler(c token.Claims) (nethttp.Handler, error) {
	m := &s.mcps
	key := c.ID + "\x00" + c.Subject
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.entries[key]; ok {
		return e.handler, nil
	}
	// The token's tools are fixed in its server, so that in on-demand mode too a
	// search, a describe or a call reaches only the tools the token is listed.
	cfg := s.cfg.MCP
	cfg.Sees = func(name string) bool {
		_, ok := s.enabled[name]
		return ok && c.Sees(name)
	}
	srv, err := mcp.NewServer(s.k, Caller(c), cfg)
	if err != nil {
		return nil, err
	}
	h := mcp.StreamableHandler(srv, s.cfg.MCP)
	now := s.cfg.Now()
	if len(m.entries) >= maxMCPHandlers {
		for k, e := range m.entries {
			if !now.Before(e.expires) {
				delete(m.entries, k)
			}
		}
	}
	if len(m.entries) >= maxMCPHandlers {
		for k := range m.entries { // still full: drop one; its clients re-initialise
			delete(m.entries, k)
			break
		}
	}
	m.entries[key] = &mcpEntry{handler: h, expires: c.Expires()}
	return h, nil
}
