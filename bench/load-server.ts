// The server side of `npm run bench:load`, in a process of its own (as a gateway's upstream
// would be): the recording upstream with N cases registered, or a plain node:http server that
// answers the same body. Prints one JSON line: its URL and the case tokens; on stdin's end, one
// more: the CPU time it spent (user and system, microseconds) since the first line, then ends.
// Both servers run with the V8 settings of a gw-conformance process (src/core/heap.ts), applied
// first as bin/gw-conformance.js does: the recording upstream is measured as `mock` runs it.
import { applyHeapFlags } from '../src/core/heap.js';

applyHeapFlags();
const http = (await import('node:http')).default;
const { RecordingUpstream } = await import('../mocks/upstream/server.js');
const { messageBody } = await import('../src/upstream/replies/messages.js');
const { JSON_HEADERS } = await import('../src/upstream/scenario.js');

const [mode, countText] = process.argv.slice(2);
const count = Number(countText);
const body = messageBody({ text: 'answer' });

async function main(): Promise<void> {
  if (mode === 'plain') {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    });
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    ready(`http://127.0.0.1:${port}`, []);
    return;
  }
  const up = new RecordingUpstream();
  await up.start('127.0.0.1', 0);
  const tokens = Array.from({ length: count }, () => up.expect({ kind: 'json', status: 200, headers: JSON_HEADERS, body }).token);
  ready(up.url, tokens);
}

function ready(url: string, tokens: string[]): void {
  process.stdout.write(`${JSON.stringify({ url, tokens })}\n`);
  const from = process.cpuUsage();
  process.stdin.resume().on('end', () => {
    const used = process.cpuUsage(from);
    process.stdout.write(`${JSON.stringify({ cpuUs: used.user + used.system })}\n`, () => process.exit(0));
  });
}

void main();
