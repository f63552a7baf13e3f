import { defineCheck, fail, pass, type CheckContext } from '../../src/check/check.js';
import { countTokensBody, errorBody } from '../../src/protocols/messages/index.js';
import type { Expectation } from '../../src/upstream/upstream.js';
import { describeDiff, diffJson } from '../../src/core/json-diff.js';
import { tryParse } from '../../src/core/json.js';
import { maskHeaders } from '../../src/core/mask.js';
import { cut, excerpt } from '../shared/evidence.js';
import { describeShape, isJsonError, shapeOf } from '../shared/shape.js';
import { countTokensExchange } from '../shared/exchange.js';
import { messagesBody } from '../shared/protocols.js';

/** A count no estimate would land on by chance. */
const REAL_COUNT = 2187;

/** The count_tokens request of this check, with a system prompt. */
const countTokens = (ctx: CheckContext, reply: Expectation) => countTokensExchange(ctx, reply, messagesBody({ system: [{ type: 'text', text: 'You are a careful assistant.' }] }));

export default defineCheck({
  id: 'messages.count-tokens.passthrough',
  title: 'POST /v1/messages/count_tokens returns the upstream\'s count, and a JSON error when the upstream answers 404 or 501',
  requirements: ['MSG-CT-1', 'MSG-RESP-2'],
  level: 'MUST',
  protocol: 'messages',
  requirement:
    'count_tokens answers the upstream\'s real count unchanged; where the upstream does not support it (404, 501) the client gets an explicit JSON error: never an HTML page, never a count the gateway made up (MSG-CT-1, MSG-RESP-2).',
  fix: 'Forward `POST /v1/messages/count_tokens` to the upstream and return its count. Where the upstream has no such endpoint, answer a JSON error; never an HTML page or an estimate of your own.',
  async run(ctx) {
    // The upstream counts.
    const ok = ctx.upstream.next().json(countTokensBody(REAL_COUNT));
    const a = await countTokens(ctx, ok);
    const aShape = shapeOf(a.res);
    const aEvidence = { client: { status: a.res.status, contentType: a.res.header('content-type') ?? null, body: cut(a.res.text(), 600) }, upstream: a.seen ? { url: a.seen.url, headers: maskHeaders(a.seen.rawHeaders) } : 'the upstream received no request for this case' };
    if (a.res.status !== 200 || !aShape.json) return fail(`count_tokens answered ${describeShape(aShape, a.res.text())} where the upstream counted ${REAL_COUNT}`, { expected: `200 ${countTokensBody(REAL_COUNT)}`, actual: describeShape(aShape, a.res.text()), evidence: aEvidence });
    const want = tryParse(countTokensBody(REAL_COUNT));
    const got = tryParse(a.res.text());
    if (!want.ok || !got.ok) throw new Error('harness bug: a JSON body did not parse losslessly');
    const diffs = diffJson(want.node, got.node, '', [], { keyOrder: false });
    if (!a.seen || diffs.length)
      return fail(`count_tokens returned ${excerpt(a.res.text(), 200)} ${a.seen ? 'instead of the upstream\'s count' : 'without asking the upstream (an invented count)'}`, {
        expected: countTokensBody(REAL_COUNT),
        actual: excerpt(a.res.text(), 2000),
        evidence: { ...aEvidence, diffs: diffs.map(describeDiff) },
      });
    // The upstream does not support it.
    const refused: string[] = [];
    for (const status of [404, 501]) {
      const e = ctx.upstream.next().json(errorBody(status, status === 404 ? 'Not found' : 'count_tokens is not supported for this model'), { status });
      const b = await countTokens(ctx, e);
      const shape = shapeOf(b.res);
      const evidence = { upstreamStatus: status, client: { status: b.res.status, contentType: b.res.header('content-type') ?? null, body: cut(b.res.text(), 600) }, forwarded: !!b.seen };
      const invented = shape.json && shape.parsed && typeof shape.parsed === 'object' && 'input_tokens' in (shape.parsed as object);
      if (invented) return fail(`with the upstream answering ${status}, count_tokens returned a count: ${excerpt(b.res.text(), 100)} (invented)`, { expected: 'an explicit JSON error', actual: `${b.res.status} ${excerpt(b.res.text(), 2000)}`, evidence });
      if (!isJsonError(shape)) return fail(`with the upstream answering ${status}, count_tokens answered ${describeShape(shape, b.res.text())}`, { expected: 'an error status with a JSON error body', actual: describeShape(shape, b.res.text()), evidence });
      refused.push(`${status} -> ${b.res.status} JSON`);
    }
    return pass(`the upstream's count (${REAL_COUNT}) arrived unchanged; unsupported: ${refused.join(', ')}`);
  },
});
