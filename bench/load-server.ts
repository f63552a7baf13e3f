// The server side of `npm run bench:load`, in a process of its own (as a gateway's upstream
// would be): the recording upstream with N cases registered, or a plain node:http server that
// answers the same body. Prints one JSON line: its URL and the case tokens; for each line on
// stdin (a mark after a warm-up), and on stdin's end, one more: the CPU time it spent (user and
// system, microseconds) since the last one, then (at the end) ends.
// Both servers run with the V8 settings of a gw-conformance process (src/core/heap.ts), applied
// first as bin/gw-conformance.js does: the recording upstream is measured as `mock` runs it.
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { applyHeapFlags } from '../src/core/heap.js';

applyHeapFlags();
const http = (await import('node:http')).default;
const { RecordingUpstream } = await import('../mocks/upstream/server.js');
const { messageBody } = await import('../src/protocols/messages/replies.js');
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

/** The garbage collector's pauses since the last mark: their total, count and longest (ms), and the total and longest of each kind (young, full, ...). */
const gc = { ms: 0, count: 0, maxMs: 0, kinds: {} as Record<string, { ms: number; count: number; maxMs: number }> };
const KINDS: Record<number, string> = { [constants.NODE_PERFORMANCE_GC_MINOR]: 'young', [constants.NODE_PERFORMANCE_GC_MAJOR]: 'full', [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental', [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks' };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gc.ms += e.duration;
    gc.count++;
    gc.maxMs = Math.max(gc.maxMs, e.duration);
    const kind = (gc.kinds[KINDS[(e as unknown as { detail: { kind: number } }).detail.kind] ?? 'other'] ??= { ms: 0, count: 0, maxMs: 0 });
    kind.ms += e.duration;
    kind.count++;
    kind.maxMs = Math.max(kind.maxMs, e.duration);
  }
}).observe({ entryTypes: ['gc'] });

function ready(url: string, tokens: string[]): void {
  process.stdout.write(`${JSON.stringify({ url, tokens })}\n`);
  let from = process.cpuUsage();
  const used = () => {
    const u = process.cpuUsage(from);
    from = process.cpuUsage();
    const r1 = (x: number) => Math.round(x * 10) / 10;
    const kinds = Object.fromEntries(Object.entries(gc.kinds).map(([k, v]) => [k, { ms: r1(v.ms), count: v.count, maxMs: r1(v.maxMs) }]));
    const out = { cpuUs: u.user + u.system, gcMs: r1(gc.ms), gcCount: gc.count, gcMaxMs: r1(gc.maxMs), kinds };
    Object.assign(gc, { ms: 0, count: 0, maxMs: 0, kinds: {} });
    return out;
  };
  // Each line on stdin ("mark"): the CPU time since the last mark (a warm-up left out of the figure).
  process.stdin.setEncoding('utf8');
  process.stdin.resume().on('data', (d: string) => {
    for (let n = d.split('\n').length - 1; n > 0; n--) process.stdout.write(`${JSON.stringify(used())}\n`);
  });
  process.stdin.on('end', () => process.stdout.write(`${JSON.stringify(used())}\n`, () => process.exit(0)));
}

void main();
