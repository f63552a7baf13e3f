import { defineCheck, fail, pass } from '../../src/check/check.js';
import { McpClient, messagesOf, stepEvidence, type McpStep } from './common.js';
import type { GwResponse } from '../../src/client/gateway.js';
import { samePayload } from '../shared/pairing.js';

/** What the client got against what the server wrote: the framing (JSON or event stream) and every message, in order; null when they agree. */
function differs(s: McpStep<GwResponse>): string | null {
  const mcp = s.seen?.mcp;
  if (!mcp) return 'the request never reached the upstream';
  const type = s.res.header('content-type') ?? '';
  const wantSse = mcp.body === 'sse';
  if (wantSse !== /event-stream/i.test(type)) return `the server answered ${wantSse ? 'an event stream' : 'JSON'}, the client got ${type || 'no content-type'}`;
  const got = messagesOf(s.res);
  const sent = mcp.sent.map((m) => m.text);
  if (got.length !== sent.length) return `the server wrote ${sent.length} messages, the client got ${got.length}`;
  const i = sent.findIndex((m, k) => !samePayload(m, got[k]));
  if (i >= 0) return `message ${i + 1} changed on the way`;
  if (wantSse) {
    const ids = mcp.sent.map((m) => m.eventId ?? '');
    const gotIds = [...s.res.text().matchAll(/^id: ?(.*)$/gm)].map((m) => m[1].trim());
    if (ids.join() !== gotIds.join()) return `the events' ids changed (${ids.join(', ')} sent, ${gotIds.join(', ') || 'none'} received)`;
  }
  return null;
}

export default defineCheck({
  id: 'mcp.answer.unchanged',
  title: 'A POST answered as JSON, and one answered as an event stream, reach the client as the server wrote them',
  requirements: ['MCP-ANS-1'],
  level: 'MUST',
  protocol: 'mcp',
  requirement: 'The answer to an MCP POST reaches the client in the form the server chose, with every message in it: a JSON body stays one JSON body, an event stream stays an event stream with the same events, in order, each with its event id.',
  fix: 'Pass MCP answers through as they come: do not turn an event stream into JSON (or JSON into a stream), and do not drop, merge or reorder events or their `id:` lines.',
  async run(ctx) {
    const checked: string[] = [];
    for (const json of [true, false]) {
      const c = new McpClient(ctx, { json });
      const { failed } = await c.open();
      if (failed) return failed;
      const s = await c.call('progress', { steps: 2, gapMs: 0 });
      const why = differs(s);
      if (why) return fail(`a tools/call answered as ${json ? 'JSON' : 'an event stream'}: ${why}`, { evidence: stepEvidence(s) });
      checked.push(`${json ? 'JSON' : 'event stream'} (${s.seen!.mcp!.sent.length} messages)`);
      await c.delete();
    }
    return pass(`both answers arrived as the server wrote them: ${checked.join(', ')}`);
  },
});
