// MSG-CT-2: count_tokens that cannot be served is a 501 with error.type `not_supported` and
// `x-should-retry: false`: the answer Claude Code's fallback (counting with an ordinary request)
// keys on. The upstream here says just that; the gateway keeps it so.
import { defineCheck, fail, pass, type Evidence, type Verdict } from '../../src/check/check.js';
import { cut, excerpt } from '../shared/evidence.js';
import { countTokensExchange } from '../shared/exchange.js';
import { messagesBody } from '../shared/protocols.js';
import { errorFields, shapeOf } from '../shared/shape.js';

const UNSUPPORTED = JSON.stringify({ type: 'error', error: { type: 'not_supported', message: 'count_tokens is not available on this backend' } });

/**
 * The gateway answered count_tokens itself (it counts locally, which is allowed): the scripted 501
 * never came into play, so this requirement cannot be judged; what can be is that the count is a number.
 */
function countedLocally(parsed: unknown, evidence: Evidence): Verdict {
  const count = parsed && typeof parsed === 'object' ? (parsed as { input_tokens?: unknown }).input_tokens : undefined;
  if (typeof count !== 'number' || !Number.isFinite(count) || count < 0)
    return fail(`count_tokens was answered by the gateway itself (the request never reached the upstream, which is allowed) with status 200, but its input_tokens is ${count === undefined ? 'missing' : JSON.stringify(count)}, not a count`, {
      expected: 'a 200 answer with a number in input_tokens (or the upstream\'s 501 passed on)',
      actual: String(evidence.client && (evidence.client as { body?: unknown }).body),
      evidence,
    });
  return { ok: true, skip: true, message: `could not judge: the gateway counts tokens itself (input_tokens ${count}, a number; the request never reached the upstream, which is allowed), so the upstream's scripted 501 never came into play`, evidence };
}

export default defineCheck({
  id: 'messages.count-tokens.not-supported',
  title: 'An unsupported count_tokens reaches the client as 501 not_supported with x-should-retry: false',
  requirements: ['MSG-CT-2'],
  level: 'SHOULD',
  protocol: 'messages',
  requirement:
    'When the upstream answers POST /v1/messages/count_tokens with 501 `{"type":"error","error":{"type":"not_supported",…}}` and `x-should-retry: false`, the client receives status 501, error.type `not_supported` and `x-should-retry: false` (MSG-CT-2).',
  fix: 'When count_tokens cannot be served (the upstream answers 501, or the backend has no counting), answer 501 `{"type":"error","error":{"type":"not_supported",…}}` with `x-should-retry: false`, never a 500 or a 502: Claude Code then counts with an ordinary request instead of reporting an outage.',
  async run(ctx) {
    const reply = ctx.upstream.next().json(UNSUPPORTED, { status: 501, headers: [['x-should-retry', 'false']] });
    const { res, seen } = await countTokensExchange(ctx, reply, messagesBody({}));
    const shape = shapeOf(res);
    const type = shape.json ? errorFields(shape.parsed)?.type : undefined;
    const retry = res.header('x-should-retry');
    const evidence = { forwarded: !!seen, client: { status: res.status, contentType: res.header('content-type') ?? null, xShouldRetry: retry ?? null, body: cut(res.text(), 400) } };
    if (!seen && res.status === 200) return countedLocally(shape.json ? shape.parsed : undefined, evidence);
    const problems = [
      ...(res.status !== 501 ? [`status ${res.status}`] : []),
      ...(type !== 'not_supported' ? [`error.type ${type === undefined ? '(none)' : JSON.stringify(type)}`] : []),
      ...(retry !== 'false' ? [`x-should-retry ${retry ?? 'missing'}`] : []),
    ];
    if (problems.length)
      return fail(`an unsupported count_tokens reached the client with ${problems.join(', ')}: Claude Code falls back to counting on its own only on a 501 not_supported (without x-should-retry: false it first asks once more)`, {
        expected: '501, error.type "not_supported", x-should-retry: false',
        actual: `${res.status} ${excerpt(res.text(), 200)}; x-should-retry ${retry ?? 'missing'}`,
        evidence,
      });
    return pass('an unsupported count_tokens reached the client as 501 not_supported with x-should-retry: false', evidence);
  },
});
