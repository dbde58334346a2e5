// Drives cmdbridge's MCP server with the official TypeScript SDK client and prints one
// JSON report on stdout. go test ./surface/mcp/... runs it; it exits non-zero, with the
// reason on stderr, at the first check that fails.
//
//   node conformance.mjs stdio fixture|corpus TOOLS COMMAND [ARG...]
//   node conformance.mjs http  fixture|corpus TOOLS URL
//
// TOOLS is the number of tools tools/list must return. "corpus" only lists (every
// schema goes through the SDK's zod validation, every output schema through its
// validator compiler); "fixture" also calls tools: a success whose structured content
// the client validates against the output schema, an error result, a call cancelled
// with an AbortSignal (the server must send no response for it), and a call reporting
// progress.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [kind, kernel, wantTools, ...target] = process.argv.slice(2);

function fail(msg) {
  process.stderr.write(`conformance (${kind}, ${kernel}): ${msg}\n`);
  process.exit(1);
}

function check(cond, msg) {
  if (!cond) fail(msg);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let transport;
if (kind === 'stdio') {
  transport = new StdioClientTransport({
    command: target[0],
    args: target.slice(1),
    env: { ...process.env },
    stderr: 'inherit',
  });
} else if (kind === 'http') {
  transport = new StreamableHTTPClientTransport(new URL(target[0]));
} else {
  fail(`unknown transport ${kind}`);
}

const client = new Client({ name: 'cmdbridge-conformance', version: '0' });
client.onerror = (err) => errors.push(String(err));
const errors = [];
await client.connect(transport);

// Every message the client sends and receives, after initialize.
const sent = [];
const received = [];
const send = transport.send.bind(transport);
transport.send = (msg, opts) => {
  sent.push(msg);
  return send(msg, opts);
};
const onmessage = transport.onmessage;
transport.onmessage = (msg, extra) => {
  received.push(msg);
  onmessage(msg, extra);
};

const report = { transport: kind, kernel };

const listed = await client.listTools().catch((err) => fail(`tools/list rejected: ${err}`));
report.tools = listed.tools.length;
check(listed.tools.length === Number(wantTools), `tools/list: ${listed.tools.length} tools, want ${wantTools}`);
for (const t of listed.tools) {
  check(t.inputSchema?.type === 'object', `${t.name}: inputSchema is not an object schema`);
  // An outputSchema is sent only for a tool that declares its data (docs/mcp.md).
  check(t.outputSchema === undefined || t.outputSchema.type === 'object', `${t.name}: outputSchema is not an object schema`);
}

if (kernel === 'fixture') {
  // A success: the client validates structuredContent against the outputSchema, if any.
  const ok = await client
    .callTool({ name: 'fx_echo', arguments: { text: 'hi' } })
    .catch((err) => fail(`fx_echo: ${err}`));
  check(!ok.isError, `fx_echo: isError ${JSON.stringify(ok)}`);
  check(ok.structuredContent?.success === true, `fx_echo: ${JSON.stringify(ok.structuredContent)}`);
  check(ok.structuredContent.data.text === 'hi', `fx_echo: data ${JSON.stringify(ok.structuredContent.data)}`);
  check(typeof ok._meta?.['cmdbridge/receipt_id'] === 'string', 'fx_echo: no receipt id in _meta');
  report.call = 'ok';

  // An error result, still valid against the output schema.
  const bad = await client
    .callTool({ name: 'fx_fail', arguments: {} })
    .catch((err) => fail(`fx_fail: ${err}`));
  check(bad.isError === true, `fx_fail: not an error ${JSON.stringify(bad)}`);
  check(bad.structuredContent?.error?.code === 'NOT_FOUND', `fx_fail: ${JSON.stringify(bad.structuredContent)}`);
  report.error = bad.structuredContent.error.code;

  // Progress: the server reports while the call runs.
  const progress = [];
  const slow = await client
    .callTool(
      { name: 'fx_sleep', arguments: { ms: 600 }, _meta: { 'cmdbridge/timeout_ms': 10000 } },
      undefined,
      { onprogress: (p) => progress.push(p), resetTimeoutOnProgress: true },
    )
    .catch((err) => fail(`fx_sleep with progress: ${err}`));
  check(!slow.isError, `fx_sleep: ${JSON.stringify(slow.structuredContent)}`);
  check(progress.length > 0, 'no progress notification during a 600 ms call');
  check(progress.every((p) => typeof p.progress === 'number' && /still running/.test(p.message ?? '')),
    `progress ${JSON.stringify(progress)}`);
  report.progress = progress.length;

  // Cancellation: abort once the call reports progress, so it is running.
  const ac = new AbortController();
  const aborted = client
    .callTool(
      { name: 'fx_sleep', arguments: { ms: 30000 }, _meta: { 'cmdbridge/timeout_ms': 60000 } },
      undefined,
      { signal: ac.signal, onprogress: () => ac.abort('test cancels') },
    )
    .then(
      () => fail('the aborted call resolved'),
      (err) => String(err),
    );
  report.cancelled = await aborted;
  const call = sent.find((m) => m.method === 'tools/call' && m.params?.arguments?.ms === 30000);
  check(call, 'the aborted call was never sent');
  check(sent.some((m) => m.method === 'notifications/cancelled' && m.params?.requestId === call.id),
    'no notifications/cancelled was sent');
  // A later call is answered; by then the cancelled one has ended on the server
  // (fx:sleep returns as soon as its context is cancelled) and had any response sent.
  const after = await client
    .callTool({ name: 'fx_echo', arguments: { text: 'after' } })
    .catch((err) => fail(`fx_echo after the cancel: ${err}`));
  check(after.structuredContent?.data?.text === 'after', 'fx_echo after the cancel');
  await sleep(300);
  const leaked = received.filter((m) => m.id === call.id && !('method' in m));
  check(leaked.length === 0, `the server answered the cancelled request: ${JSON.stringify(leaked)}`);
}

// The client runs notification handlers a microtask later than response handlers, so
// a progress notification read in the same chunk as its call's response is reported
// as "unknown token" although it came first on the wire. That case is forgiven only
// when the wire order really was progress first. So is progress for the request this
// client cancelled: the client forgets the token when it aborts, and a notification
// the server sent before it read notifications/cancelled may still arrive (the MCP
// spec says a receiver must expect that); a response to it never may (checked above).
const cancelledId = (sent.find((m) => m.method === 'tools/call' && m.params?.arguments?.ms === 30000) ?? {}).id;
const real = errors.filter((e) => {
  const m = /unknown token: (.*)$/.exec(e);
  if (!m) return true;
  const token = JSON.parse(m[1]).params.progressToken;
  if (cancelledId !== undefined && token === cancelledId) return false;
  const note = received.findIndex((x) => x.method === 'notifications/progress' && x.params?.progressToken === token);
  const resp = received.findIndex((x) => x.id === token && !('method' in x));
  return !(note >= 0 && resp > note);
});
check(real.length === 0, `client errors: ${real.join('; ')}`);
report.forgiven = errors.length - real.length;
if (kind === 'http') {
  // DELETE the session, as a client that is done should.
  await transport.terminateSession().catch((err) => fail(`DELETE session: ${err}`));
}
await client.close();
process.stdout.write(JSON.stringify(report) + '\n');
