import { defineCheck, fail, pass, type Verdict } from '../../src/check/check.js';
import { readStream } from '../../src/client/sse.js';
import { nativeAnswer } from '../../src/protocols/native/index.js';
import { modelsOf, nativeRequest, responseEvidence, streamResultEvidence } from './common.js';
import { jsonOf } from '../shared/shape.js';
import { plural } from '../../src/core/words.js';

type Answer = ReturnType<typeof nativeAnswer>;

/** An answer without text, told by its finish reason: an empty candidate is not a success. */
function judge(what: string, a: Answer, evidence: Verdict['evidence']): Verdict | null {
  if (a.text) return null;
  const reasons = [...a.finishReasons.map((r) => `finishReason ${r}`), ...(a.blockReason ? [`promptFeedback.blockReason ${a.blockReason}`] : [])];
  const claimsSuccess = !a.blockReason && a.finishReasons.every((r) => r === 'STOP');
  const why = !reasons.length ? 'no finish reason and no block reason either' : claimsSuccess ? `${reasons.join(', ')}: an empty answer presented as a success` : reasons.join(', ');
  return fail(`the native ${what} has no text (${why}); it is reported, not counted as a working connection`, {
    expected: 'an answer with text',
    actual: `no text; ${reasons.join(', ') || 'no finish reason'}; ${plural(a.candidates, 'candidate')}`,
    evidence: { finishReasons: a.finishReasons, blockReason: a.blockReason, ...evidence },
  });
}

export default defineCheck({
  id: 'service.native.no-text',
  title: 'A native answer without text is reported with its finish reason (SAFETY, MAX_TOKENS, a block reason), not as a success',
  requirements: ['SVC-4'],
  level: 'MUST',
  profile: 'service',
  protocol: 'native',
  requirement:
    'The native answer (JSON and streamed) carries text in candidates[].content.parts; when it does not, the run fails and names the finish reason or promptFeedback.blockReason the service gave, and says when there is none or when STOP claims a success with no text (an empty candidate is not a successful connection).',
  fix: 'An answer without text names its cause: look at the finish reason or block reason the evidence reports (safety settings, `maxOutputTokens`) and at the model configured.',
  async run(ctx) {
    const models = modelsOf(ctx);
    const req = nativeRequest(models.native, false);
    const res = await ctx.gateway.send({ ...req, signal: ctx.signal });
    const body = jsonOf(res.text());
    if (res.status !== 200 || body === undefined) return { ok: true, skip: true, message: `the native request answered ${res.status}: no answer to judge (service.native.answers reports it)`, evidence: responseEvidence('json', res) };
    const a = nativeAnswer(body);
    const v1 = judge('answer', a, responseEvidence('json', res));
    if (v1) return v1;
    const sreq = nativeRequest(models.native, true);
    const s = await readStream(ctx.gateway, { ...sreq, signal: ctx.signal });
    if (s.status !== 200) return { ok: true, skip: true, message: `the streamed native request answered ${s.status}: no answer to judge (service.native.answers reports it)` };
    const frames = s.events.map((e) => nativeAnswer(jsonOf(e.data)));
    const streamed: Answer = {
      text: frames.map((f) => f.text).join(''),
      finishReasons: frames.flatMap((f) => f.finishReasons),
      blockReason: frames.map((f) => f.blockReason).find((b) => b !== null) ?? null,
      candidates: Math.max(0, ...frames.map((f) => f.candidates)),
    };
    const v2 = judge('streamed answer', streamed, streamResultEvidence('stream', sreq.path, s));
    if (v2) return v2;
    return pass(`the answer has text, JSON and streamed (finishReason ${a.finishReasons.join(',') || 'none'})`);
  },
});
