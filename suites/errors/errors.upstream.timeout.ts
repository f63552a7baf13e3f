import { defineCheck, fail, pass } from '../../src/check/check.js';
import { GatewayTimeoutError } from '../../src/client/gateway.js';
import { clientEvidence } from '../shared/evidence.js';
import { messagesBody } from '../shared/protocols.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { attempt, describeShape, isJsonError, shapeOf, withBound } from '../shared/shape.js';

/** Added to the wait for the check's own time limit, so the check reports before the runner's time-out. */
const MARGIN_MS = 5000;

export default defineCheck({
  id: 'errors.upstream.timeout',
  title: 'When the upstream accepts a messages request and never answers, the gateway\'s own time-out gives the client a JSON error',
  requirements: ['ERR-DOWN-1', 'MSG-RESP-2'],
  level: 'MUST',
  protocol: 'messages',
  // Only this check's request hangs (its case token): it waits beside every other check.
  background: true,
  timeLimitMs: (s) => s.hangWaitMs + MARGIN_MS,
  requirement:
    'When the upstream hangs past the gateway\'s own time-out, the client gets an error status (typically 504) with a JSON error body, never an HTML page or a dropped connection; the status and the time taken are reported (ERR-DOWN-1, MSG-RESP-2). The check waits --hang-wait-ms (only its own request hangs, so it runs beside the other checks); a gateway whose time-out is longer is reported as not observed (skip).',
  fix: 'Give up on a silent upstream with a JSON error (typically 504). nginx: a JSON `error_page 504`. A skip means the gateway\'s time-out is longer than `--hang-wait-ms`: raise it to see what the gateway answers then.',
  async run(ctx) {
    const e = ctx.upstream.next().hang();
    // Within the client's own time-out (--timeout-ms), which would otherwise end the wait first.
    const waitMs = Math.max(500, Math.min(ctx.settings.hangWaitMs, ctx.settings.timeoutMs - 500));
    const sent = messagesBody({}).split(CASE_PLACEHOLDER).join(e.token);
    const r = await attempt(() => withBound(ctx.signal, waitMs, (signal) => ctx.gateway.messages(sent, { caseToken: e.token, signal })));
    const forwarded = e.hits.length > 0;
    if (!r.ok) {
      if (r.kind === 'transport') return fail(`the gateway dropped the connection instead of answering: ${r.error}`, { expected: 'a JSON error (e.g. 504)', actual: r.error, evidence: { forwarded } });
      // Never forwarded and never answered: the gateway itself hangs; that is the runner's time-out to report.
      if (!forwarded || ctx.signal.aborted) throw new GatewayTimeoutError(r.error);
      return {
        ok: true,
        skip: true,
        message: `not observed: the gateway forwarded the request and had not given up on the silent upstream after ${waitMs} ms (its upstream time-out is longer; run with a larger --hang-wait-ms to see what it answers then)`,
        evidence: { waitedMs: waitMs, forwarded },
      };
    }
    const res = r.value;
    const ms = Math.round(res.endedAt - res.startedAt);
    const shape = shapeOf(res);
    const evidence = { ms, forwarded, client: clientEvidence(res, 800) };
    if (!isJsonError(shape))
      return fail(`when the upstream hung, the client got ${shape.html ? 'an HTML page' : 'no JSON error object'} after ${ms} ms: ${describeShape(shape, res.text())}`, { expected: 'an error status with a JSON error body', actual: describeShape(shape, res.text()), evidence });
    return pass(`a JSON ${res.status} after ${ms} ms${forwarded ? '' : ' (the gateway answered without forwarding)'}`, evidence);
  },
});
