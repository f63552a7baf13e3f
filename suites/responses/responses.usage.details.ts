// RESP-USAGE-1: usage reaches the client as the upstream counted it, the cached-token and
// reasoning-token details included, in a response object and in the stream's response.completed.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeDiff, diffJson } from '../../src/core/json-diff.js';
import { at, tryParse } from '../../src/core/json.js';
import { RESPONSES_USAGE, responsesAnswer, responsesJsonReply } from '../../src/protocols/responses/index.js';
import { exchange, responsesSend, streamEvidenceOf } from '../shared/exchange.js';
import { responsesBody } from '../shared/protocols.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { responsesStreamExchange } from './common.js';

const WANT = tryParse(JSON.stringify(RESPONSES_USAGE));

/** What differs between the upstream's usage and `got`'s usage at `pointer`, or why there is none to compare. */
function usageProblem(where: string, text: string | undefined, pointer: string): string | null {
  if (!WANT.ok) throw new Error('harness bug: usage is not JSON');
  const got = text === undefined ? null : tryParse(text);
  if (!got?.ok) return `${where}: ${text === undefined ? 'not received' : 'not JSON'}`;
  const usage = at(got.node, pointer);
  if (!usage) return `${where}: no usage`;
  const diffs = diffJson(WANT.node, usage, pointer, [], { keyOrder: false });
  return diffs.length ? `${where}: usage changed: ${diffs.map(describeDiff).join('; ')}` : null;
}

export default defineCheck({
  id: 'responses.usage.details',
  title: 'Usage with cached input tokens and reasoning tokens arrives unchanged, in a response object and in response.completed',
  requirements: ['RESP-USAGE-1'],
  level: 'MUST',
  untranslatable: 'the upstream\'s usage object as sent',
  protocol: 'responses',
  requirement:
    'The usage of a Responses API answer reaches the client as the upstream sent it, in a JSON response and in the response of the stream\'s response.completed event: input_tokens, input_tokens_details.cached_tokens, output_tokens, output_tokens_details.reasoning_tokens and total_tokens, none dropped, zeroed or recomputed.',
  fix: 'Pass `usage` through whole, in JSON answers and in `response.completed`: `input_tokens_details.cached_tokens` and `output_tokens_details.reasoning_tokens` included; do not rebuild usage from the top-level counts.',
  async run(ctx) {
    const x = await exchange(ctx, responsesBody({}, 'Say hello (usage).'), responsesSend({ reply: responsesJsonReply(responsesAnswer()) }));
    const s = await responsesStreamExchange(ctx);
    const completed = s.res.events.find((e) => e.event === 'response.completed' || /"type":\s*"response\.completed"/.test(e.data));
    const problems = [
      x.res.status !== 200 ? `JSON answer: the client got ${x.res.status}` : usageProblem('JSON answer', x.res.text(), '/usage'),
      s.res.status !== 200 ? `stream: the client got ${s.res.status}` : usageProblem('response.completed', completed?.data, '/response/usage'),
    ].filter((p): p is string => p !== null);
    const evidence = { json: exchangeEvidence(x, 600), stream: streamEvidenceOf(s, 600) };
    if (problems.length) return fail(problems.join('; '), { expected: JSON.stringify(RESPONSES_USAGE), actual: problems.join('\n'), evidence });
    return pass('usage arrived whole (cached and reasoning token details included) in the JSON answer and in response.completed', evidence);
  },
});
