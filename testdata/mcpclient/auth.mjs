// Connects to cmdbridge's HTTP server (surface/http, /mcp behind bearer tokens) the way
// a host holding a static token does, with the official TypeScript SDK, and prints one
// JSON report on stdout. go test ./surface/http/... runs it.
//
//   node auth.mjs URL TOKEN TOOL ARGS_JSON
//
// URL is the server's /mcp endpoint. The script:
//   1. sends initialize without a token and reads the 401's WWW-Authenticate the way
//      the SDK's auth() does (extractWWWAuthenticateParams), then loads the Protected
//      Resource Metadata it names with the SDK's own RFC 9728 discovery (its schema
//      validates the document);
//   2. connects with the token in requestInit's Authorization header and no
//      authProvider, so the client cannot start interactive OAuth: tools/list and one
//      tools/call must succeed on the token alone.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  selectResourceURL,
} from '@modelcontextprotocol/sdk/client/auth.js';

const [url, token, toolName, args] = process.argv.slice(2);

function fail(msg) {
  process.stderr.write(`auth.mjs: ${msg}\n`);
  process.exit(1);
}

const report = {};

// 1. Unauthenticated: the challenge and the metadata it points at.
const res = await fetch(url, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
  body: JSON.stringify({
    jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'auth-test', version: '0' } },
  }),
});
await res.body?.cancel();
report.unauthenticated_status = res.status;
const params = extractWWWAuthenticateParams(res);
if (!params.resourceMetadataUrl) fail(`no resource_metadata in ${res.headers.get('WWW-Authenticate')}`);
report.resource_metadata = params.resourceMetadataUrl.href;
const prm = await discoverOAuthProtectedResourceMetadata(new URL(url), { resourceMetadataUrl: params.resourceMetadataUrl });
report.metadata = prm;
// The SDK refuses metadata whose resource does not cover the URL it connected to.
report.selected_resource = (await selectResourceURL(new URL(url), {}, prm))?.href ?? null;

// 2. With the token, no authProvider: no OAuth can start.
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
const client = new Client({ name: 'cmdbridge-auth-test', version: '0' });
await client.connect(transport);
const list = await client.listTools();
report.tools = list.tools.map((t) => t.name).sort();
const call = await client.callTool({ name: toolName, arguments: JSON.parse(args) });
report.call_is_error = Boolean(call.isError);
report.call_text = call.content?.[0]?.text ?? '';
await transport.terminateSession().catch(() => {});
await client.close();

process.stdout.write(JSON.stringify(report) + '\n');
