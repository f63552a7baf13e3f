import { defineCheck, type Verdict } from '../../src/check/check.js';
import { judgeIncremental } from '../shared/incremental.js';
import { pairInOrder } from '../shared/pairing.js';
import type { StreamExchange } from '../shared/exchange.js';
import { plural } from '../../src/core/words.js';
import { McpClient, parsed } from './common.js';

/** Gap between the progress notifications: far above loopback lag and the burst window, so a buffer shows as events arriving together. */
const GAP_MS = 300;

/** One tools/call of the progress tool answered as an event stream, as the stream checks see it (the messages the server wrote, their moments). */
async function progressStream(ctx: Parameters<typeof judgeIncremental>[0], steps: number, opened: { failed: Verdict | null }): Promise<StreamExchange> {
  const c = new McpClient(ctx);
  const { init, failed } = await c.open();
  opened.failed = failed;
  const s = failed ? null : await c.postStream(c.body('tools/call', { name: 'progress', arguments: { steps, gapMs: GAP_MS }, _meta: { progressToken: 'p1' } }));
  const seen = s?.seen ?? (failed ? init.seen : null);
  const sent = seen?.mcp?.sent.map((m) => m.text) ?? [];
  const res = s?.res ?? { status: init.res.status, rawHeaders: init.res.rawHeaders, header: init.res.header, events: [], raw: init.res.body, rawBytes: init.res.body.length, chunks: [], startedAt: init.res.startedAt, headersAt: init.res.headersAt, endedAt: init.res.endedAt, framing: 'sse' as const };
  if (s) await c.delete();
  return { res, seen, expectation: c.e, reply: { kind: 'sse', status: seen?.mcp?.status ?? 0, headers: seen?.mcp?.headers ?? [], frames: sent.map((data) => ({ gapMs: GAP_MS, data })) }, sent };
}

export default defineCheck({
  id: 'mcp.stream.incremental',
  title: 'A tool call streaming progress notifications 300 ms apart reaches the client event by event',
  requirements: ['MCP-STREAM-1'],
  level: 'MUST',
  timing: true,
  protocol: 'mcp',
  requirement: "The event stream answering an MCP POST (a tool call's progress notifications, then its result) reaches the client incrementally: not held until the call ends or a buffer fills, events sent apart not delivered together, none later than a coarse bound (default 1 s) after the server sent it.",
  fix: 'Turn response buffering off for the MCP endpoint (nginx: `proxy_buffering off;` in its location), as for streaming.delivery.incremental; an MCP client shows progress and cancels long calls by these events.',
  run: (ctx) => {
    const opened: { failed: Verdict | null } = { failed: null };
    // Near a bound, 12 notifications instead of 5.
    return judgeIncremental(ctx, {
      unit: 'event',
      exchange: (more) => progressStream(ctx, more ? 12 : 5, opened),
      noStream: (x) => opened.failed ?? (x.res.status === 200 && x.seen ? null : { ok: false, message: `the client got status ${x.res.status} instead of the tool call's event stream`, evidence: { upstream: x.seen ? 'the call reached the upstream' : 'the call never reached the upstream' } }),
      pair: (x) => pairInOrder(x.sent, x.res.events.map((e) => e.data)),
      name: (sent) => {
        const m = parsed(sent);
        return m && typeof m.method === 'string' ? `${m.method} ${String((m.params as { progress?: unknown } | undefined)?.progress ?? '')}`.trim() : 'result';
      },
      tooFew: { actual: (x) => plural(x.res.events.length, 'event') },
    });
  },
});
