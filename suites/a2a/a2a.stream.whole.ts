import { defineCheck, fail, pass } from '../../src/check/check.js';
import { plural } from '../../src/core/words.js';
import { streamEvidenceOf } from '../shared/exchange.js';
import { changedFrom, eventName, streamTask } from './common.js';

export default defineCheck({
  id: 'a2a.stream.whole',
  title: 'Every event of a task streamed by message/stream reaches the client in order and unchanged, the final status last',
  requirements: ['AGENT-STREAM-2'],
  level: 'MUST',
  protocol: 'a2a',
  undeclared: 'info',
  requirement:
    "Every event of an A2A message/stream answer (the task, its status updates, its artifact's chunks, the final status marked final) reaches the client in order and unchanged by meaning, none added, and the stream ends after the final status, not before it.",
  fix: 'Pass the A2A endpoint\'s event stream through as the agent writes it: no event filter or rewrite, no body-size limit that cuts it, no read time-out shorter than a task; the evidence names the first event lost, changed or added.',
  async run(ctx) {
    const x = await streamTask(ctx);
    const ev = streamEvidenceOf(x);
    if (!x.seen) return fail(`the message/stream request never reached the upstream (the gateway answered ${x.res.status})`, { evidence: ev });
    if (x.res.status !== 200) return fail(`the client got status ${x.res.status} instead of the task's event stream`, { evidence: ev });
    const got = x.res.events.map((e) => e.data).filter((d) => d.trim() !== '');
    const want = x.sent;
    for (let i = 0; i < Math.max(want.length, got.length); i++) {
      if (i >= got.length) return fail(`the stream ended after ${plural(got.length, 'event')} of ${want.length}: the first lost is event ${i + 1} (${eventName(want[i])})${i === want.length - 1 ? ', the final status: the client never learns the task ended' : ''}`, { expected: `${want.length} events`, actual: `${got.length} events`, evidence: ev });
      if (i >= want.length) return fail(`the client got ${got.length - want.length} more events than the agent sent: the first added is ${JSON.stringify(got[i].slice(0, 200))}`, { expected: `${want.length} events`, actual: `${got.length} events`, evidence: ev });
      const changed = changedFrom(want[i], got[i]);
      if (changed) return fail(`event ${i + 1} (${eventName(want[i])}) arrived changed: ${changed}`, { expected: want[i], actual: got[i], evidence: ev });
    }
    return pass(`all ${want.length} events arrived in order, unchanged by meaning, the final status last`, ev);
  },
});
