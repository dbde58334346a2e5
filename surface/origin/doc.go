// Package origin decides whether a browser's request may reach a cmdbridge server, from
// its Origin header: the DNS-rebinding and cross-site defence the MCP specification asks
// of every streamable HTTP server, shared by surface/http and surface/mcp.
//
// Invariants:
//
//   - A request without an Origin header is allowed: browsers send one on every
//     cross-origin request and on every POST, so its absence means a non-browser client
//     (curl, an SDK, a conductor), which a bearer token authenticates.
//   - A present Origin is allowed only when it is the server's own origin — its host
//     and port are the local address the request arrived on, or localhost at that port
//     when that address is loopback — or one of the configured origins (scheme, host
//     and port compared exactly, case-insensitively; "*" allows every origin). A page
//     served from any DNS name, a DNS-rebinding page included, is therefore refused
//     unless configured, and so are "null" and malformed origins.
//   - Nothing here reads the Host header: after DNS rebinding it names the attacker's
//     domain and proves nothing.
package origin
