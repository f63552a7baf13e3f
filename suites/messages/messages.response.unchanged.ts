import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeDiff } from '../../src/core/json-diff.js';
import { DEFAULT_USAGE, messageBody } from '../../src/protocols/messages/index.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange, responseDiffs } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';

// Fields the API has added over time, and one no gateway can know yet.
const EXTRA = {
  stop_details: { type: 'end_turn' },
  container: null,
  inference_geo: 'us',
  gwc_future_response_field: { nested: [1, 2.5, 'x'] },
};

export default defineCheck({
  id: 'messages.response.unchanged',
  title: 'A 200 message with new and unknown response fields reaches the client unchanged',
  requirements: ['MSG-RESP-1'],
  level: 'MUST',
  untranslatable: 'the upstream\'s answer body, field for field',
  protocol: 'messages',
  requirement: "The upstream's JSON response reaches the client with the same status, content type and JSON body, unknown fields included.",
  fix: 'Pass the upstream\'s response through: status, content type and body, unknown fields included. Add fields only if your clients expect them (an added field such as `cost` is reported, a changed one fails).',
  async run(ctx) {
    const x = await exchange(ctx, messagesBody({}), { reply: (c) => c.upstream.next().json(messageBody({ usage: { ...DEFAULT_USAGE, server_tool_use: { web_search_requests: 0 } }, extra: EXTRA })) });
    const ev = exchangeEvidence(x);
    if (x.res.status !== 200) return fail(`the client got status ${x.res.status}`, { expected: '200', actual: String(x.res.status), evidence: ev });
    if (!/^application\/json/i.test(x.res.header('content-type') ?? '')) return fail('content-type changed', { expected: 'application/json', actual: x.res.header('content-type') ?? '(absent)', evidence: ev });
    const { diffs, parseError } = responseDiffs(x);
    if (parseError) return fail(`the client got a body that is not JSON: ${parseError}`, { evidence: ev });
    if (!diffs.length) return pass('status, content type and every response field arrived unchanged');
    const added = diffs.filter((d) => d.kind === 'added');
    const changed = diffs.filter((d) => d.kind !== 'added');
    // An added field (e.g. a gateway's own `cost`) is told apart from a changed or lost one.
    const what = [changed.length ? `changed or lost: ${changed.map((d) => d.path).join(', ')}` : '', added.length ? `added by the gateway: ${added.map((d) => d.path).join(', ')}` : ''].filter(Boolean).join('; ');
    return fail(`the response body differs from the upstream's: ${what}`, {
      expected: "the upstream's body",
      actual: diffs.map(describeDiff).join('\n'),
      evidence: { added: added.map((d) => d.path), changed: changed.map((d) => d.path), diffs, ...ev },
    });
  },
});
