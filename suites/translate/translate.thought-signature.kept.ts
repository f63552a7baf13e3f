// XLATE-SIG-1: a Gemini thought signature survives a translated tool round trip. On a route that
// forwards messages as chat completions (Gemini's OpenAI-compatible endpoint carries the
// signature of a tool call in `extra_content.google.thought_signature`), the upstream answers
// with a signed tool call; the client sends its answer back as it got it, with the tool's result;
// the next request must bring the signature back on that tool call, or Gemini refuses the turn.
// How the gateway keeps it in the messages answer is its own affair: the check only echoes.
import { defineCheck, fail, pass, type Verdict } from '../../src/check/check.js';
import { RECORDS } from '../../src/protocols/index.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { exchange, notForwarded } from '../shared/exchange.js';
import { exchangeEvidence, excerpt } from '../shared/evidence.js';
import { notTranslated, translation } from '../shared/route.js';
import { MESSAGES_MODEL } from '../shared/protocols.js';
import { routeEvidence, ON_TRANSLATED_ROUTE } from './common.js';

const SIGNATURE = 'CiQBcsjafDf1pnkD2h6bSqHcZQdkXJxuSbJHlvkKAVpQPhFCG9EKYgFyyNp8gwc1rRdtbXy6tR0m';
const CALL = { id: 'call_XlateSig000000000000001', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' }, extra_content: { google: { thought_signature: SIGNATURE } } };
const TOOLS = [{ name: 'get_weather', description: 'The weather in a city.', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }];
const ASK = { role: 'user', content: `${CASE_PLACEHOLDER} What is the weather in Paris?` };
const body = (messages: unknown[]) => JSON.stringify({ model: MESSAGES_MODEL, max_tokens: 512, tools: TOOLS, messages });

/** Gemini's chat answer with one signed tool call. */
const signedAnswer = () =>
  JSON.stringify({ id: 'chatcmpl-XlateSig0001', object: 'chat.completion', created: 1730000000, model: MESSAGES_MODEL, choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [CALL] }, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 } });

/** The get_weather tool call of the assistant turn of a chat request, as the upstream received it. */
function upstreamCall(text: string): Record<string, unknown> | null {
  try {
    const msgs = (JSON.parse(text) as { messages?: Array<{ role?: string; tool_calls?: Array<Record<string, unknown>> }> }).messages ?? [];
    return msgs.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : [])).find((c) => (c.function as { name?: unknown } | undefined)?.name === 'get_weather') ?? null;
  } catch {
    return null;
  }
}

export default defineCheck({
  id: 'translate.thought-signature.kept',
  title: "A Gemini thought signature on a tool call comes back to the upstream with the next turn of a translated tool round trip",
  requirements: ['XLATE-SIG-1'],
  ...ON_TRANSLATED_ROUTE,
  requirement:
    "On a route translated to chat completions, a tool call the upstream signed (extra_content.google.thought_signature) comes back to the upstream on that tool call, with the same signature, when the client sends the answer it got back with the tool's result.",
  fix: "Keep each tool call's `extra_content.google.thought_signature` when mapping the answer back (in the tool_use block, its id or a signed thinking block the client returns) and put it back on the same tool call when the client's next turn carries it: Gemini refuses a turn whose function call lost its signature.",
  async run(ctx): Promise<Verdict> {
    const chat = RECORDS.chat.replies;
    const first = await exchange(ctx, body([ASK]), { reply: (c) => c.upstream.register({ kind: 'json', protocol: 'chat', status: 200, headers: chat.jsonHeaders, body: signedAnswer() }) });
    if (!first.seen) return notForwarded(first);
    const t = translation('messages', first.seen);
    if (!t) return notTranslated('messages', first.seen);
    const evidence = { ...routeEvidence(ctx, first.seen), turn1: exchangeEvidence(first) };
    if (t.to !== 'chat') return { ok: true, skip: true, message: `not applicable: the route forwards in ${t.to}, where tool calls carry no Gemini thought signature (routes to chat completions are judged)`, evidence };
    let content: Array<{ type?: unknown; id?: unknown }> = [];
    try {
      content = (JSON.parse(first.res.text()) as { content?: typeof content }).content ?? [];
    } catch {
      /* judged below: no tool call to send back */
    }
    const use = content.find((b) => b?.type === 'tool_use');
    if (!use) return { ok: true, skip: true, message: `could not judge: the answer mapped back from chat has no tool_use block to send back (status ${first.res.status}; translate.answer.meaning judges the lost call)`, evidence };
    const second = await exchange(ctx, body([ASK, { role: 'assistant', content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '18 degrees, clear' }] }]));
    if (!second.seen) return notForwarded(second);
    const call = upstreamCall(second.seen.body.toString('utf8'));
    const got = (call?.extra_content as { google?: { thought_signature?: unknown } } | undefined)?.google?.thought_signature;
    const all = { ...evidence, turn2: exchangeEvidence(second), upstreamToolCall: call };
    if (got === SIGNATURE) return pass('the tool call came back to the chat upstream with its thought signature', all);
    return fail(call ? `the tool call came back to the upstream ${got === undefined ? 'without its thought signature' : 'with another thought signature'}` : 'the next turn reached the upstream without the get_weather tool call', {
      expected: `tool call get_weather with extra_content.google.thought_signature ${excerpt(SIGNATURE, 40)}`,
      actual: call ? excerpt(JSON.stringify(call), 300) : excerpt(second.seen.body.toString('utf8'), 300),
      evidence: all,
    });
  },
});
