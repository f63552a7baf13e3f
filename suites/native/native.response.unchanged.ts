import { defineCheck, fail, pass, type CheckContext, type Verdict } from '../../src/check/check.js';
import { describeDiff, diffJson } from '../../src/core/json-diff.js';
import { parseJson, tryParse } from '../../src/core/json.js';
import { blockedResponse, nativeAnswer, nativeFrames, nativeJsonReply, nativeResponse, nativeSseReply, nativeStream, promptBlockedResponse } from '../../src/protocols/native/index.js';
import { exchange, nativeSend, responseDiffs, streamEvidenceOf, streamThrough } from '../shared/exchange.js';
import { exchangeEvidence, cut } from '../shared/evidence.js';
import { nativeBody, nativePath } from '../shared/protocols.js';
import { plural } from '../../src/core/words.js';

const answerOf = (text: string) => {
  try {
    return nativeAnswer(parseJson(text));
  } catch {
    return null;
  }
};
const describe = (a: ReturnType<typeof nativeAnswer> | null) =>
  a ? `text ${JSON.stringify(cut(a.text, 60))}, finishReason ${a.finishReasons.join(',') || '(none)'}${a.blockReason ? `, promptFeedback.blockReason ${a.blockReason}` : ''}` : 'not JSON';

const CASES: Array<{ name: string; body: () => string }> = [
  { name: 'an answer with text (finishReason STOP) and a field from the future', body: () => nativeResponse({ text: 'Bonjour 😀 "q" \\ é\n', extra: { gwcFutureField: { nested: [1, 2.5] } } }) },
  { name: 'a blocked candidate (finishReason SAFETY, no parts)', body: () => blockedResponse() },
  { name: 'a candidate cut by the token limit (finishReason MAX_TOKENS, no parts)', body: () => blockedResponse({ finishReason: 'MAX_TOKENS' }) },
  { name: 'a blocked prompt (promptFeedback.blockReason, no candidates)', body: () => promptBlockedResponse() },
];

export default defineCheck({
  id: 'native.response.unchanged',
  title: 'Native answers with text, with a blocked candidate, with a blocked prompt, and a streamed answer ending blocked reach the client unchanged',
  requirements: ['NAT-RESP-1'],
  level: 'MUST',
  untranslatable: 'the upstream\'s candidates and frames, field for field',
  protocol: 'native',
  requirement:
    "candidates[].content.parts[].text and finishReason reach the client as the upstream sent them, in JSON answers and streamed frames; an empty candidate (finishReason SAFETY or MAX_TOKENS, no parts) or a prompt blocked by promptFeedback stays empty, never becomes a success or gets invented text.",
  fix: 'Forward candidates as the upstream sent them; an empty candidate (finishReason `SAFETY`, `MAX_TOKENS`) or a blocked prompt stays empty. Never invent text or turn a block into a success.',
  async run(ctx) {
    for (const c of CASES) {
      const x = await exchange(ctx, nativeBody(), nativeSend({ reply: nativeJsonReply(c.body()) }));
      const ev = exchangeEvidence(x);
      const sentAnswer = describe(answerOf((x.expectation.reply as { body: string }).body));
      if (x.res.status !== 200) return fail(`${c.name}: the client got status ${x.res.status}`, { expected: '200', actual: String(x.res.status), evidence: ev });
      const { diffs, parseError } = responseDiffs(x);
      if (parseError) return fail(`${c.name}: the client got a body that is not JSON: ${parseError}`, { evidence: ev });
      if (diffs.length) {
        const got = describe(answerOf(x.res.text()));
        return fail(`${c.name}: the answer changed on the way: the upstream sent ${sentAnswer}; the client got ${got}`, {
          expected: "the upstream's answer",
          actual: diffs.map(describeDiff).join('\n'),
          evidence: { diffs, ...ev },
        });
      }
    }
    const v = await streamCase(ctx);
    if (!v.ok) return v;
    return pass(`all ${CASES.length} JSON answers and the streamed answer (text, then a SAFETY candidate) arrived unchanged, finish reasons included`);
  },
});

/** A stream of text frames whose last frame blocks the answer (a candidate with SAFETY and no content). */
async function streamCase(ctx: CheckContext): Promise<Verdict> {
  const payloads = nativeStream({ pieces: ['Once upon', ' a time'], blockedWith: 'SAFETY' });
  const s = await streamThrough(ctx, nativeSseReply(nativeFrames(payloads)), { path: nativePath(undefined, true), auth: 'x-goog-api-key', body: nativeBody({}, 'Stream a story.') });
  const ev = streamEvidenceOf(s);
  if (s.res.status !== 200 || !s.seen) return fail(`streamed answer: the client got status ${s.res.status}${s.res.error ? ` (${s.res.error})` : ''}`, { expected: '200 and a stream', actual: String(s.res.status), evidence: ev });
  const got = s.res.events.map((e) => e.data);
  for (let i = 0; i < payloads.length; i++) {
    const want = tryParse(payloads[i]);
    const have = got[i] === undefined ? null : tryParse(got[i]);
    if (!want.ok) throw new Error('harness bug: scripted frame is not JSON');
    if (!have) return fail(`streamed answer: frame ${i} of ${payloads.length} never arrived`, { expected: payloads[i], actual: `${plural(got.length, 'frame')}`, evidence: ev });
    if (!have.ok) return fail(`streamed answer: frame ${i} is not JSON: ${have.error}`, { expected: payloads[i], actual: got[i], evidence: ev });
    const diffs = diffJson(want.node, have.node);
    if (diffs.length)
      return fail(`streamed answer: frame ${i} changed: ${describeDiff(diffs[0])}`, { expected: payloads[i], actual: got[i], evidence: { diffs, frame: i, ...ev } });
  }
  if (got.length > payloads.length) return fail(`streamed answer: ${plural(got.length - payloads.length, 'frame')} the upstream never sent were added`, { expected: `${payloads.length} frames`, actual: got.slice(payloads.length).join('\n'), evidence: ev });
  return { ok: true, message: 'stream unchanged' };
}
