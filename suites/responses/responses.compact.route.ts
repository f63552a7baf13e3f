// RESP-COMPACT-1: Codex's remote compaction, POST /v1/responses/compact, reaches the upstream on
// its own path with its body, and the compacted object (its opaque compaction item) comes back.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { tryParse } from '../../src/core/json.js';
import { describeDiff, diffJson } from '../../src/core/json-diff.js';
import { apiPath } from '../../src/protocols/index.js';
import { compactedResponse } from '../../src/protocols/responses/index.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { passedThrough, routeExchange, routeReply } from '../shared/api-route.js';
import { exchangeEvidence } from '../shared/evidence.js';

const SEALED = 'gAAAAABgwc-compaction-sealed-by-the-upstream-0000000000000000000000000000000000';

/** What Codex sends to compact a long history: the model, the turns so far, the compaction instructions; no `stream`. */
const body = () =>
  JSON.stringify({
    model: 'gpt-5.5',
    input: [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: `${CASE_PLACEHOLDER} Refactor the parser into two modules.` }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Split into lexer.rs and parser.rs; tests pass.' }] },
    ],
    instructions: 'You are compacting a coding session: keep what the next turn needs.',
    tools: [],
    parallel_tool_calls: true,
    reasoning: { effort: 'medium' },
    text: { verbosity: 'low' },
  });

export default defineCheck({
  id: 'responses.compact.route',
  title: 'POST /v1/responses/compact (Codex\'s remote compaction) reaches the upstream and its compacted answer comes back',
  requirements: ['RESP-COMPACT-1'],
  level: 'MUST',
  protocol: 'responses',
  requirement:
    'A POST /v1/responses/compact reaches the upstream on that path with its JSON body unchanged in meaning (no `stream` added, not sent to /v1/responses instead), and the upstream\'s answer, the compacted object with its opaque compaction item, reaches the client with its status and body.',
  fix: 'Route `POST /v1/responses/compact` to the upstream as it came (a route table that knows only `/v1/responses` answers it 404, which Codex reports as "high demand"); do not turn it into a `/v1/responses` call or a stream.',
  async run(ctx) {
    const sent = body();
    const x = await routeExchange(ctx, { method: 'POST', path: apiPath('responses', 'compact'), body: sent, headers: [['content-type', 'application/json']], auth: 'bearer', reply: routeReply('responses', compactedResponse('Refactor the parser into two modules.', SEALED)) });
    const broken = passedThrough(x, 'the compaction request');
    if (broken) return broken;
    const evidence = exchangeEvidence(x);
    const want = tryParse(sent.replace(CASE_PLACEHOLDER, x.expectation.token));
    const got = tryParse(x.seen!.body.toString('utf8'));
    const diffs = want.ok && got.ok ? diffJson(want.node, got.node, '') : null;
    if (!diffs) return fail('the compaction request reached the upstream with a body that is not its JSON', { expected: 'the JSON body as sent', actual: x.seen!.body.toString('utf8').slice(0, 200), evidence });
    if (diffs.length) return fail(`the compaction request's body changed on the way: ${describeDiff(diffs[0])}`, { expected: 'the body as sent', actual: diffs.map(describeDiff).join('\n'), evidence: { diffs, ...evidence } });
    return pass('the compaction request reached the upstream on /v1/responses/compact as sent, and its compacted answer came back unchanged', evidence);
  },
});
