import { translation } from '../shared/route.js';
import { defineCheck, fail, pass, type CheckContext, type Verdict } from '../../src/check/check.js';
import { attempt, describeShape, errorFields, isJsonError, shapeOf } from '../shared/shape.js';
import { clientEvidence, excerpt } from '../shared/evidence.js';
import { judgeClient, judgeForwarded, sendLarge } from './errors.body.large.js';

/**
 * The messages protocol's limit: 32 MB. One body of exactly this size is sent (made in 64 KiB
 * pieces while it goes out, never held whole). It costs about half a second in the run's
 * exclusive phase, less than the idle probe that runs beside it, so the default run sends the
 * real limit rather than a smaller stand-in that a gateway with a 20 MB limit would pass.
 */
export const PROVIDER_LIMIT_BYTES = 32 * 1000 * 1000;

const mb = (bytes: number) => `${+(bytes / 1e6).toFixed(2)} MB`;

/** A body of `bytes` (at or under the limit) must reach the upstream byte for byte; null when it did. */
async function underTheLimit(ctx: CheckContext, bytes: number, declared: boolean): Promise<{ failed: Verdict } | { ms: number; how: string }> {
  const r = await attempt(() => sendLarge(ctx, bytes, ctx.settings.seed));
  const size = mb(bytes);
  if (!r.ok) return { failed: fail(`a ${size} body got no answer: ${r.error}`, { expected: 'forwarded byte for byte', actual: r.error }) };
  const x = r.value;
  const ms = Math.round(x.res.endedAt - x.res.startedAt);
  const evidence = { bytes, status: x.res.status, ms, upstreamBytes: x.seen?.bodyBytes ?? null, bytesIdentical: !!x.seen && x.seen.bodyBytes === x.sentBytes && x.seen.bodySha256 === x.sentSha256 };
  if (x.res.status < 300) {
    const problem = judgeForwarded(x) ?? judgeClient(x);
    if (problem) return { failed: fail(`a ${size} body: ${problem}`, { expected: 'forwarded byte for byte, the upstream answer returned', actual: problem, evidence: { ...evidence, client: clientEvidence(x.res, 400) } }) };
    const t = translation('messages', x.seen);
    if (!evidence.bytesIdentical && !t) return { failed: fail(`a ${size} body arrived changed: ${x.seen?.bodyBytes} bytes, not byte for byte what was sent`, { expected: `${x.sentBytes} identical bytes`, actual: `${x.seen?.bodyBytes} bytes`, evidence }) };
    return { ms, how: t ? `whole (its image data; translated into ${t.to})` : 'byte for byte' };
  }
  const shape = shapeOf(x.res);
  const err = isJsonError(shape) ? errorFields(shape.parsed) : null;
  if (x.res.status === 413 && err?.type === 'request_too_large')
    return {
      failed: fail(`the gateway refused a ${size} body with a JSON 413 request_too_large: its limit is below ${declared ? 'the one declared (--body-limit-bytes)' : "the provider's, and was not declared (--body-limit-bytes)"}`, {
        expected: `bodies up to ${size} forwarded`,
        actual: `413 ${excerpt(x.res.text(), 200)}`,
        evidence,
      }),
    };
  return { failed: fail(`a ${size} body was answered ${describeShape(shape, x.res.text())}`, { expected: 'forwarded byte for byte', actual: `${x.res.status}`, evidence: { ...evidence, client: clientEvidence(x.res, 400) } }) };
}

/** Over a declared limit: a JSON 413 request_too_large, and the body never reaches the upstream. */
async function overTheLimit(ctx: CheckContext, limit: number): Promise<Verdict | null> {
  const bytes = limit + 1024 * 1024;
  const r = await attempt(() => sendLarge(ctx, bytes, ctx.settings.seed + 1));
  const expected = `a JSON 413 request_too_large for ${mb(bytes)}, over the declared ${mb(limit)}, not forwarded`;
  if (!r.ok) return fail(`over the declared limit, a ${mb(bytes)} body got no answer: ${r.error}`, { expected, actual: r.error });
  const x = r.value;
  const shape = shapeOf(x.res);
  const err = isJsonError(shape) ? errorFields(shape.parsed) : null;
  const evidence = { bytes, declaredLimit: limit, status: x.res.status, forwarded: !!x.seen, client: clientEvidence(x.res, 400) };
  if (x.seen) return fail(`a ${mb(bytes)} body, over the declared limit of ${mb(limit)}, reached the upstream`, { expected, actual: `forwarded, then ${x.res.status}`, evidence });
  if (x.res.status === 413 && err?.type === 'request_too_large') return null;
  return fail(`a ${mb(bytes)} body, over the declared limit of ${mb(limit)}, was answered ${describeShape(shape, x.res.text())}`, { expected, actual: `${x.res.status}`, evidence });
}

export default defineCheck({
  id: 'errors.body.size-limit',
  title: "A messages body of the provider's limit (32 MB), or of the gateway's declared limit, reaches the upstream byte for byte",
  requirements: ['MSG-SIZE-1'],
  level: 'MUST',
  protocol: 'messages',
  // 32 MB through the event loop: alone, so the timing checks of other areas are not disturbed.
  exclusive: true,
  requirement:
    "A messages body of 32 MB (the provider's limit; a base64 image block), or of the lower limit the gateway declares (--body-limit-bytes), reaches the upstream byte for byte (on a route the gateway translates into another protocol: with its image data whole) and the client gets the upstream's answer; a body over a declared limit gets a JSON 413 request_too_large and is not forwarded. A JSON 413 under the limit is an undeclared lower limit; an HTML page, a reset or a time-out fails as well (MSG-SIZE-1).",
  fix: 'Accept request bodies up to the provider\'s 32 MB (nginx: `client_max_body_size 32m;`) and stream them through. If the gateway must have a lower limit, answer bodies over it with a JSON 413 `{"type":"error","error":{"type":"request_too_large",...}}` and declare it to the run with `--body-limit-bytes N` (`body-limit-bytes:` in gwc.yaml), so bodies up to it must arrive byte for byte and one over it must get that 413.',
  async run(ctx) {
    const limit = Math.min(ctx.settings.bodyLimitBytes ?? PROVIDER_LIMIT_BYTES, PROVIDER_LIMIT_BYTES);
    const declared = limit < PROVIDER_LIMIT_BYTES;
    const under = await underTheLimit(ctx, limit, declared);
    if ('failed' in under) return under.failed;
    if (!declared) return pass(`a ${mb(limit)} body reached the upstream ${under.how} in ${under.ms} ms`, { bytes: limit, ms: under.ms });
    const over = await overTheLimit(ctx, limit);
    return over ?? pass(`a ${mb(limit)} body (the declared limit) reached the upstream ${under.how} in ${under.ms} ms, and one over it got a JSON 413 request_too_large without reaching the upstream`, { bytes: limit, ms: under.ms, declaredLimit: limit });
  },
});
