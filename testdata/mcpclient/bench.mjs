// Measures tools/call latency seen by the official TypeScript SDK client and prints
// one JSON line: {"n":…, "p50_us":…, "p99_us":…, "mean_us":…}. The Go benchmarks
// in surface/mcp run it.
//
//   node bench.mjs stdio N TOOL ARGS_JSON COMMAND [ARG...]
//   node bench.mjs http  N TOOL ARGS_JSON URL
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [kind, count, name, argsJSON, ...target] = process.argv.slice(2);
const n = Number(count);
const args = JSON.parse(argsJSON);

const transport =
  kind === 'stdio'
    ? new StdioClientTransport({ command: target[0], args: target.slice(1), env: { ...process.env }, stderr: 'inherit' })
    : new StreamableHTTPClientTransport(new URL(target[0]));
const client = new Client({ name: 'cmdbridge-bench', version: '0' });
await client.connect(transport);
await client.listTools(); // as a host does; also primes the output-schema validators

// Warm up, then time each call.
for (let i = 0; i < Math.min(20, n); i++) await client.callTool({ name, arguments: args });
const took = [];
for (let i = 0; i < n; i++) {
  const start = process.hrtime.bigint();
  const res = await client.callTool({ name, arguments: args });
  took.push(Number(process.hrtime.bigint() - start) / 1000);
  if (res.isError) {
    process.stderr.write(`bench: ${name} failed: ${JSON.stringify(res.structuredContent)}\n`);
    process.exit(1);
  }
}
took.sort((a, b) => a - b);
const at = (q) => took[Math.min(took.length - 1, Math.floor(q * took.length))];
const mean = took.reduce((a, b) => a + b, 0) / took.length;
if (kind === 'http') await transport.terminateSession();
await client.close();
process.stdout.write(JSON.stringify({ n, p50_us: at(0.5), p99_us: at(0.99), mean_us: mean }) + '\n');
