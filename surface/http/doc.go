// Package http is the conductor sidecar: the kernel's tools over HTTP for a conductor
// (or any client) holding a bearer token minted by package token.
//
// Endpoints: GET /healthz and the OAuth 2.0 Protected Resource Metadata (RFC 9728) at
// GET /.well-known/oauth-protected-resource and …/mcp (no token); GET /tools, the tools the token's globs see, with a
// strong ETag honouring If-None-Match; POST /tools/{name}, one non-interactive call whose
// tool.Output is the 200 body (with ?stdin=1 the body wraps the input and the tool's
// stdin, {"input": {...}, "stdin": "..."}); DELETE /calls/{id}, cancelling a call in flight; POST
// /turns, several calls run as one kernel batch (one run id) bracketed by turn events;
// DELETE /turns/{id}, cancelling a turn; POST /commands, a durable conductor:command
// (429 once its subject has Config.MaxPendingCommands, or MaxPendingCommandBytes, not
// yet acknowledged); /mcp, the MCP streamable HTTP transport with the token's tools and
// scopes; /events, the event stream when one is configured. docs/http.md is the reference. Other transports
// (surface/broker, NATS) reuse the POST /tools and POST /commands checks and kernel path
// through Authenticate, CheckCall, RunCall and AcceptCommand, so there is one of each.
//
// Invariants:
//
//   - Every call goes through kernel.Kernel.Call, non-interactively (except MCP calls
//     on /mcp from a client that can elicit its user's approval, surface/mcp), with the
//     caller the verified token makes (subject, read and write scopes). Nothing in a request body,
//     query or header other than Authorization changes who calls or what it may touch.
//   - A request whose Origin header is neither the server's own origin nor an allowed one
//     gets 403 before anything else is looked at (surface/origin). A request without a
//     valid, unexpired token gets 401 with WWW-Authenticate before anything but its
//     Origin is looked at, the tool name included; the challenge names the resource's
//     metadata (resource_metadata), which holds nothing secret and lists no
//     authorization server: tokens are only minted by package token.
//   - An authenticated request's body is read whole, within its limit (MaxBodyBytes, or
//     MaxMCPBodyBytes for /mcp; 413 beyond), before any endpoint sees it. Under
//     [Server.Serve], Limits bound reading headers, reading a whole request, each write
//     of a response (never a whole response: long calls and streams keep their
//     connection) and idle keep-alive; the open connections are capped, in total and per
//     client address until a connection carries a valid token, and a new connection
//     displaces the stalest idle or stalled one, never one whose authenticated request
//     is running.
//   - A stream (GET /events, an /mcp session's GET stream) ends when the token that
//     opened it expires; a call, checked when it started, runs to its end.
//   - A tool the token may not see (its globs, or governance that disables or excludes
//     it) is answered exactly like a tool that does not exist: 404 with the same
//     headers and bytes and no Date header.
//   - Once a call is dispatched the status is 200, whatever the tool did: refusals and
//     failures (INVALID_INPUT, SCOPE_DENIED, APPROVAL_REQUIRED, CANCELLED…) are in the
//     Output. Transport problems are the only other statuses: 400 for a body that is
//     not one JSON object (or, with ?stdin=1, not the wrapper), 413 for a body over the
//     limit.
//   - A client disconnect, DELETE /calls/{id} by the same subject, or Server.Close
//     cancels the call's context; the kernel records it CANCELLED.
//   - GET /tools lists tools in name order; identical globs give identical bytes and tag.
//   - In a turn every call is checked exactly as POST /tools checks it: a tool the token
//     may not see is the same TOOL_NOT_FOUND result as an unknown one, byte for byte the
//     404 body, and neither reaches the kernel. A turn publishes turn_started, then its
//     calls' tool_called (the kernel hook), then exactly one of turn_completed or
//     turn_aborted, all under the turn's run id and from the token's subject.
//   - An aborted turn's cleanup_status never understates: a write-capable call that
//     reached its lane and was cut off is needs_recovery, one that finished is partial;
//     clean means no write-capable call ran. The recovery_action is only ever reported,
//     never run.
//   - An approval_requested or conductor:command is in the outbox (durable) before the
//     answer that reports it; from is always the token's subject, never a body field.
package http
