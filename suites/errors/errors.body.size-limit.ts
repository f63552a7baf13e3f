import { defineCheck, fail, pass } from '../../src/check/check.js';
import { attempt, describeShape, errorFields, isJsonError, shapeOf } from '../shared/shape.js';
import { clientEvidence, cut } from '../shared/evidence.js';
import { judgeClient, judgeForwarded, sendLarge } from './errors.body.large.js';

/**
 * The messages protocol's limit: 32 MB. One body of exactly this size is sent (made in 64 KiB
 * pieces while it goes out, never held whole). It costs about half a second in the run's
 * exclusive phase, less than the idle probe that runs beside it, so the default run sends the
 * real limit rather than a smaller stand-in that a gateway with a 20 MB limit would pass.
 */
export const PROVIDER_LIMIT_BYTES = 32 * 1000 * 1000;

export default defineCheck({
  id: 'errors.body.size-limit',
  title: "A messages body of the provider's limit (32 MB) reaches the upstream byte for byte",
  requirements: ['MSG-SIZE-1'],
  level: 'MUST',
  area: 'errors',
  profile: 'default',
  protocol: 'messages',
  // 32 MB through the event loop: alone, so the timing checks of other areas are not disturbed.
  exclusive: true,
  requirement:
    "A messages body of 32 MB (the provider's limit; a base64 image block) reaches the upstream byte for byte and the client gets the upstream's answer. A JSON 413 request_too_large below that size is an undeclared lower limit; an HTML page, a reset or a time-out fails as well (MSG-SIZE-1).",
  async run(ctx) {
    const r = await attempt(() => sendLarge(ctx, PROVIDER_LIMIT_BYTES, ctx.settings.seed));
    const size = `${PROVIDER_LIMIT_BYTES / 1e6} MB`;
    if (!r.ok) return fail(`a ${size} body got no answer: ${r.error}`, { expected: 'forwarded byte for byte', actual: r.error });
    const x = r.value;
    const ms = Math.round(x.res.endedAt - x.res.startedAt);
    const evidence = { bytes: PROVIDER_LIMIT_BYTES, status: x.res.status, ms, upstreamBytes: x.seen?.bodyBytes ?? null, bytesIdentical: !!x.seen && x.seen.bodyBytes === x.sentBytes && x.seen.bodySha256 === x.sentSha256 };
    if (x.res.status < 300) {
      const problem = judgeForwarded(x) ?? judgeClient(x);
      if (problem) return fail(`a ${size} body: ${problem}`, { expected: 'forwarded byte for byte, the upstream answer returned', actual: problem, evidence: { ...evidence, client: clientEvidence(x.res, 400) } });
      if (!evidence.bytesIdentical) return fail(`a ${size} body arrived changed: ${x.seen?.bodyBytes} bytes, not byte for byte what was sent`, { expected: `${x.sentBytes} identical bytes`, actual: `${x.seen?.bodyBytes} bytes`, evidence });
      return pass(`a ${size} body reached the upstream byte for byte in ${ms} ms`, evidence);
    }
    const shape = shapeOf(x.res);
    const err = isJsonError(shape) ? errorFields(shape.parsed) : null;
    if (x.res.status === 413 && err?.type === 'request_too_large')
      return fail(`the gateway refused a ${size} body with a JSON 413 request_too_large: its limit is below the provider's and was not declared`, {
        expected: `bodies up to ${size} forwarded`,
        actual: `413 ${cut(x.res.text(), 200)}`,
        evidence,
      });
    return fail(`a ${size} body was answered ${describeShape(shape, x.res.text())}`, { expected: `forwarded, or (over a declared lower limit) a JSON 413 request_too_large`, actual: `${x.res.status}`, evidence: { ...evidence, client: clientEvidence(x.res, 400) } });
  },
});
