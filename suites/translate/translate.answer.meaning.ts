import { defineCheck, fail, pass } from '../../src/check/check.js';
import { RECORDS, type Answer, jsonReply } from '../../src/protocols/index.js';
import { exchange, notForwarded } from '../shared/exchange.js';
import { exchangeEvidence, excerpt } from '../shared/evidence.js';
import { notTranslated, translation } from '../shared/route.js';
import { addedBlocks, answerDiffs, richBody, routeEvidence, ON_TRANSLATED_ROUTE } from './common.js';
import { MESSAGES_MODEL } from '../shared/protocols.js';

/** What the upstream answers: text, a tool call with arguments, its stop reason, usage with a cache read. */
const ANSWER: Answer = {
  model: MESSAGES_MODEL,
  text: 'Tomorrow looks é😀 "clear" too.',
  toolCalls: [{ id: 'toolu_01XlateAnswer00000000001', name: 'get_weather', args: '{"city":"Paris","day":"tomorrow"}' }],
  stop: 'tool_use',
  usage: { input: 2048, output: 87, cacheRead: 4096 },
};

export default defineCheck({
  id: 'translate.answer.meaning',
  title: 'An answer mapped back from another protocol keeps its text, tool call, stop reason and usage, and gains nothing',
  requirements: ['XLATE-ANS-1'],
  ...ON_TRANSLATED_ROUTE,
  requirement:
    "On a translated route the answer the client gets, in its own protocol, carries the upstream's answer unchanged in meaning: the same text, the same tool calls (names and arguments), the stop reason mapped to its counterpart, and the usage with the same numbers (all prompt tokens, the cached part, the output); it gains no content block the upstream never sent.",
  fix: 'Map the answer back whole: every text part, every tool call with its arguments, the stop reason to its counterpart (`tool_calls` → `tool_use`, `length` → `max_tokens`), and usage with the cached part apart (`input_tokens` = prompt tokens less cached, `cache_read_input_tokens` = cached); add no block of your own (an empty `annotations` list is no web search).',
  async run(ctx) {
    const body = RECORDS.messages.replies.answer(ANSWER);
    const x = await exchange(ctx, richBody(), { reply: (c) => c.upstream.register({ ...jsonReply(RECORDS.messages.replies, body), protocol: 'messages' }) });
    if (!x.seen) return notForwarded(x);
    const t = translation('messages', x.seen);
    if (!t) return notTranslated('messages', x.seen);
    const evidence = { ...routeEvidence(ctx, x.seen), ...exchangeEvidence(x) };
    const got = x.res.status === 200 ? RECORDS.messages.replies.readAnswer(x.res.text()) : null;
    if (!got)
      return fail(`the client got ${x.res.status === 200 ? 'a body that is not a messages answer' : `status ${x.res.status}`} where the upstream answered 200 in ${t.to}`, { expected: 'a messages answer (type message)', actual: excerpt(x.res.text(), 300), evidence });
    const diffs = answerDiffs(ANSWER, got);
    if (diffs.length)
      return fail(`the answer mapped back from ${t.to} lost or changed ${diffs.map((d) => d.field).join(', ')}`, {
        expected: diffs.map((d) => `${d.field}: ${JSON.stringify(d.upstream)}`).join('\n'),
        actual: diffs.map((d) => `${d.field}: ${JSON.stringify(d.client)}`).join('\n'),
        evidence: { ...evidence, upstreamAnswer: ANSWER, clientAnswer: got },
      });
    const added = addedBlocks(ANSWER, x.res.text());
    if (added.length)
      return fail(`the answer mapped back from ${t.to} gained ${added.length} content block(s) the upstream never sent (${[...new Set(added.map((b) => String(b.type)))].join(', ')}): a translation adds nothing`, {
        expected: `content blocks for the upstream's text and tool call only (text, tool_use)`,
        actual: excerpt(JSON.stringify(added), 300),
        evidence: { ...evidence, upstreamAnswer: ANSWER, clientAnswer: got },
      });
    return pass(`the answer came back from ${t.to} with its text, tool call, stop reason (${got.stop}) and usage`, evidence);
  },
});
