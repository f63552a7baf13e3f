// RESP-SSE-3: a Responses API stream that fails midway reaches the client as response.failed,
// the upstream's error inside, in the protocol's own event shape.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { eventName, noStream, responsesStreamExchange } from './common.js';
import { streamEvidenceOf } from '../shared/exchange.js';
import { cut } from '../shared/evidence.js';

const ERROR = { code: 'server_error', message: 'The model produced invalid output mid-stream (gw-conformance scripted failure).' };

export default defineCheck({
  id: 'responses.stream.failed',
  title: 'A stream that fails midway reaches the client as a response.failed event carrying the upstream\'s error',
  requirements: ['RESP-SSE-3'],
  level: 'MUST',
  untranslatable: 'the upstream\'s failure event as sent',
  protocol: 'responses',
  requirement:
    'When the upstream ends a Responses API stream with response.failed, the client receives that event after the deltas sent before it: named response.failed, its data of type response.failed with the response\'s status "failed" and the upstream\'s error (code and message); it is not turned into another protocol\'s error frame, a plain close, or a completed response.',
  fix: 'Pass `response.failed` through as the upstream sent it (event name, status and `error`); do not translate it into a chat-completions `data: {"error": ...}` frame or close the stream without it.',
  async run(ctx) {
    const x = await responsesStreamExchange(ctx, { pieces: ['Partial ', 'answer '], failWith: ERROR });
    const ev = streamEvidenceOf(x);
    if (x.res.status !== 200 || !x.seen) return fail(noStream(x), { evidence: ev });
    const last = x.res.events[x.res.events.length - 1];
    const names = x.res.events.map((e) => eventName(e.data)).join(' | ');
    if (!last) return fail('the client received no event at all', { expected: 'the deltas, then response.failed', actual: '(no events)', evidence: ev });
    let data: { type?: unknown; response?: { status?: unknown; error?: { code?: unknown; message?: unknown } } } = {};
    try {
      data = JSON.parse(last.data) as typeof data;
    } catch {
      /* judged below as not the failure event */
    }
    if (last.event !== 'response.failed' || data.type !== 'response.failed')
      return fail(`the stream ended with ${last.event ? `event: ${last.event}` : 'a frame without an event name'} (${eventName(last.data)}), not response.failed`, { expected: 'event: response.failed with data of type response.failed', actual: cut(last.data, 300), evidence: { events: names, ...ev } });
    const err = data.response?.error;
    if (data.response?.status !== 'failed' || err?.code !== ERROR.code || err?.message !== ERROR.message)
      return fail('response.failed arrived without the upstream\'s error', { expected: JSON.stringify({ status: 'failed', error: ERROR }), actual: JSON.stringify({ status: data.response?.status, error: err ?? null }), evidence: ev });
    return pass('the failure reached the client as response.failed with the upstream\'s error code and message');
  },
});
