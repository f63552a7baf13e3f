import { defineCheck, fail, pass } from '../../src/check/check.js';
import { frames, messageStream } from '../../src/protocols/messages/index.js';
import { notStreamed, streamEvidence, streamExchange } from './common.js';
import { cut } from '../shared/evidence.js';

const DELTAS = 5200;
const CHARS = 400;

export default defineCheck({
  id: 'streaming.long.complete',
  title: 'A stream of more than 5,000 events and 2 MiB arrives complete and in order',
  requirements: ['SSE-LONG-1'],
  level: 'MUST',
  untranslatable: 'the upstream\'s events one for one',
  protocol: 'messages',
  requirement: 'A long stream (thousands of events) reaches the client complete, every event in order.',
  fix: 'Do not cap the size or event count of a response: a stream of thousands of events and several MiB must arrive whole (check buffer limits and response size limits of the proxy).',
  async run(ctx) {
    const events = messageStream({ full: false, textDeltas: DELTAS, deltaChars: CHARS });
    const f = frames(events);
    const bytes = f.reduce((n, fr) => n + Buffer.byteLength(fr.data), 0);
    const x = await streamExchange(ctx, f, { idleTimeoutMs: ctx.settings.timeoutMs });
    if (x.res.status !== 200 || !x.seen) return notStreamed(x);
    const ev = { sentEvents: events.length, sentBytes: bytes, ...streamEvidence(x, 200) };
    if (x.res.events.length !== events.length)
      return fail(`${x.res.events.length} of ${events.length} events arrived${x.res.error ? ` (${x.res.error})` : ''}`, { expected: `${events.length} events, ${bytes} bytes`, actual: `${x.res.events.length} events, ${x.res.raw.length} bytes`, evidence: ev });
    const outOfPlace = x.res.events.findIndex((e, i) => e.data !== events[i].data);
    if (outOfPlace >= 0) return fail(`event ${outOfPlace} is not the one sent there`, { expected: cut(events[outOfPlace].data, 200), actual: cut(x.res.events[outOfPlace].data, 200), evidence: ev });
    return pass(`${events.length} events, ${(bytes / 1048576).toFixed(2)} MiB, complete and in order in ${Math.round(x.res.endedAt - x.res.startedAt)} ms`, ev);
  },
});
