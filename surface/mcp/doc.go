// Package mcp serves the kernel's tools over the Model Context Protocol, using the
// official Go SDK (github.com/modelcontextprotocol/go-sdk): [NewServer] builds the SDK
// server, [ServeStdio] runs it on a process's standard streams and [HTTPHandler] serves
// it over the SDK's streamable HTTP transport.
//
// tools/list carries every tool [kernel.Kernel.Tools] exposes, under its MCP-safe name
// ([tool.MCPName]), with the kernel's input schema (boolean sub-schemas spelled as
// objects, see below), the tool's
// annotations (title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint, all
// stated explicitly so the protocol's defaults never apply) and an output schema
// describing the [tool.Output] envelope. tools/call runs the tool through
// [kernel.Kernel.Call] and returns the Output as JSON text content and as structured
// content, with the evidence receipt id in the result's _meta.
//
// Invariants:
//
//   - Every call goes through the kernel pipeline with the caller the server was built
//     with. Nothing in a request (arguments, _meta, client info) can change the caller
//     or its scopes. A call is interactive only when its client declared the
//     elicitation capability: an "ask" decision then becomes an approval question to
//     the client's user (elicit.go: an input request, or elicitation/create for older
//     protocol versions), and only an accepted approve=true answer bound to that tool
//     and input runs the call. For any other client an "ask" is APPROVAL_REQUIRED,
//     never a wait.
//   - A tool failure, kernel refusals included (TOOL_DISABLED, INVALID_INPUT,
//     SCOPE_DENIED, POLICY_DENIED, APPROVAL_REQUIRED, TIMEOUT…), is a result with
//     isError true carrying the Output, so the model can read error.code. Only protocol
//     problems (unknown method or tool name, malformed JSON-RPC) are protocol errors, as
//     the SDK produces them.
//   - An MCP tool name maps to exactly one canonical name; two tools with the same MCP
//     name are an error when the server is built, never last-one-wins.
//   - In stdio mode the protocol writes only to its own duplicate of the output
//     descriptor. While [ServeStdio] runs, descriptor 1 and os.Stdout point at standard
//     error, so legacy code writing to stdout (through os.Stdout, a package-level copy
//     of it, or the raw descriptor) cannot corrupt the stream; both are restored when
//     it returns. The adapter's own capture of os.Stdout during a call is unaffected.
//   - No schema in tools/list has a boolean where a schema goes (true is {}, false is
//     {"not":{}}), except additionalProperties: false: clients that check MCP's wire
//     schema (the TypeScript SDK from 1.22) reject a whole listing over one boolean.
//   - A request's _meta may ask for a timeout (TimeoutMetaKey, milliseconds); the kernel
//     clamps it to the tool's maximum. It may carry the tool's stdin (StdinMetaKey, a
//     string); the kernel bounds it. Nothing else in _meta reaches the kernel.
//   - A call carrying a progress token gets notifications/progress while it runs, and
//     none after its response.
//   - A result larger than the size cap (Config.MaxResultBytes, 1 MiB) is never sent: a
//     truncated one with the same success and error code, no data, and metadata naming
//     the receipt is sent instead, still valid against the output schema.
//   - A request the client cancelled gets no response, on either transport.
//   - stdio: a malformed line is answered (-32700, or -32600 for JSON that is not a
//     JSON-RPC message) and never ends the session; at end of input every request read
//     before is answered before ServeStdio returns; a request before initialize is a
//     -32600 error.
//   - Streamable HTTP: an idle session is closed after the idle time (Config.SessionIdle,
//     30 minutes) and its id is then answered 404; a sessionless request other than
//     initialize is a -32600 error, and opens no session.
//   - This package does no governance, validation or scope checks of its own: the
//     kernel decides; this package only translates.
package mcp
