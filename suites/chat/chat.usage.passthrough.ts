import { defineCheck, fail, pass, type CheckContext } from '../../src/check/check.js';
import { describeDiff, diffJson } from '../../src/core/json-diff.js';
import { at, toPlain, tryParse } from '../../src/core/json.js';
import { chatCompletion, chatFrames, chatJsonReply, chatSseReply, chatStream, DONE } from '../../src/protocols/chat/index.js';
import { CHAT_PATH, chatBody } from '../shared/protocols.js';
import { chatSend, exchange, streamEvidenceOf, streamThrough } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { plural } from '../../src/core/words.js';

/** Usage with every detail a client reads, cached and reasoning tokens not zero (a gateway must keep them, not rebuild them). */
const USAGE = {
  prompt_tokens: 2006,
  completion_tokens: 300,
  total_tokens: 2306,
  prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 192, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
};

/** The request's stream options, as a client writes them. */
const STREAM_CASES = [
  { name: 'include_usage true', options: { include_usage: true } },
  { name: 'no stream_options', options: undefined },
  { name: 'include_usage false', options: { include_usage: false } },
] as const;

const withUsage = (payload: string) => (payload === DONE ? payload : JSON.stringify({ ...JSON.parse(payload), ...(JSON.parse(payload).usage ? { usage: USAGE } : {}) }));

/** What broke for one streaming request, or null. */
async function streamCase(ctx: CheckContext, c: (typeof STREAM_CASES)[number]): Promise<{ problem: string | null; evidence: unknown }> {
  const asked = c.options?.include_usage === true;
  const payloads = chatStream({ includeUsage: asked }).map(withUsage);
  const fields = c.options ? { stream: true, stream_options: c.options } : { stream: true };
  const x = await streamThrough(ctx, chatSseReply(chatFrames(payloads)), { path: CHAT_PATH, auth: 'bearer', body: chatBody(fields, `Stream a hello (${c.name}).`) });
  const evidence = { request: c.name, ...streamEvidenceOf(x, 800) };
  if (!x.seen) return { problem: `${c.name}: the request never reached the upstream (the gateway answered ${x.res.status})`, evidence };
  const sentOpts = JSON.stringify(c.options ?? null);
  const seenBody = tryParse(x.seen.body.toString('utf8'));
  if (!seenBody.ok) return { problem: `${c.name}: the upstream received a body that is not JSON`, evidence };
  const opts = at(seenBody.node, '/stream_options');
  const gotOpts = opts ? JSON.stringify(toPlain(opts)) : 'null';
  if (sentOpts !== gotOpts) return { problem: `${c.name}: the upstream received stream_options ${gotOpts}, the client sent ${c.options ? sentOpts : 'none'}`, evidence };
  const usages = x.res.events.map((e) => tryParse(e.data)).flatMap((p) => (p.ok ? [at(p.node, '/usage')] : [])).filter((u) => u && u.t !== 'null');
  if (!asked) return { problem: usages.length ? `${c.name}: the client got ${plural(usages.length, 'usage chunk')} the upstream never sent` : null, evidence };
  const want = tryParse(JSON.stringify(USAGE));
  if (!want.ok) throw new Error('harness bug: usage is not JSON');
  if (usages.length !== 1) return { problem: `${c.name}: the client got ${usages.length} usage values, the upstream sent one`, evidence };
  const diffs = diffJson(want.node, usages[0]!, '/usage', [], { keyOrder: false });
  return { problem: diffs.length ? `${c.name}: the usage chunk changed: ${diffs.map(describeDiff).join('; ')}` : null, evidence };
}

export default defineCheck({
  id: 'chat.usage.passthrough',
  title: 'Chat usage arrives as the upstream sent it: the usage chunk whole, none invented, include_usage never added',
  requirements: ['CHAT-USAGE-1'],
  level: 'MUST',
  untranslatable: '`stream_options` and the usage chunk as the upstream sent it',
  protocol: 'chat',
  requirement:
    'Streaming requests with include_usage true, false and without stream_options, and a JSON request: the upstream receives stream_options as sent (none added), the client gets the usage chunk whole (cached and reasoning token details included) when one was asked for and sent, no usage chunk when none was, and the JSON answer\'s usage unchanged.',
  fix: 'Forward `stream_options` as the client sent it (never add `include_usage`: clients that did not ask for it crash on the extra chunk with empty `choices`), pass the usage chunk and the JSON `usage` through whole, details included, and never emit usage the upstream did not send.',
  async run(ctx) {
    const streams = await Promise.all(STREAM_CASES.map((c) => streamCase(ctx, c)));
    const body = chatCompletion();
    const x = await exchange(ctx, chatBody({}, 'Say hello (no stream).'), chatSend({ reply: chatJsonReply(body) }));
    const gotJson = tryParse(x.res.text());
    const wantJson = tryParse(body);
    const gotUsage = gotJson.ok ? at(gotJson.node, '/usage') : undefined;
    const jsonDiffs = wantJson.ok && gotUsage ? diffJson(at(wantJson.node, '/usage')!, gotUsage, '/usage', [], { keyOrder: false }) : [];
    const jsonProblem = x.res.status !== 200 ? `JSON request: the client got ${x.res.status}` : !gotUsage ? 'JSON request: the answer lost its usage' : jsonDiffs.length ? `JSON request: usage changed: ${jsonDiffs.map(describeDiff).join('; ')}` : null;
    const problems = [...streams.map((s) => s.problem), jsonProblem].filter((p): p is string => p !== null);
    const evidence = { streams: streams.map((s) => s.evidence), json: exchangeEvidence(x, 600) };
    if (problems.length)
      return fail(problems.join('; '), {
        expected: 'stream_options as sent; the usage chunk whole when asked for, none otherwise; JSON usage unchanged',
        actual: problems.join('\n'),
        evidence,
      });
    return pass(`usage arrived as sent on ${STREAM_CASES.map((c) => c.name).join(', ')} and a JSON answer; stream_options reached the upstream unchanged`, evidence);
  },
});
