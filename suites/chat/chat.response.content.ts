import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeDiff } from '../../src/core/json-diff.js';
import { chatCompletion, chatJsonReply } from '../../src/protocols/chat/index.js';
import { chatSend, exchange, responseDiffs } from '../shared/exchange.js';
import { chatBody } from '../shared/protocols.js';
import { exchangeEvidence } from '../shared/evidence.js';

// Content a post-processing gateway tends to touch: edge whitespace, escapes, astral characters,
// a code block; and an answer that is only a tool call (content null).
const CONTENTS: Array<string | null> = ['  Hello!\n\n```ts\nconst x = "é😀\\\\";\n```\n  ', '\u2028line\u2029sep\ttab </script>', null];

export default defineCheck({
  id: 'chat.response.content',
  title: 'choices[].message.content (whitespace, escapes, unicode, null) and the rest of the completion reach the client unchanged',
  requirements: ['CHAT-BODY-1'],
  level: 'MUST',
  untranslatable: 'the upstream\'s completion, field for field',
  protocol: 'chat',
  requirement: "The upstream's chat completion reaches the client unchanged: status, JSON content type, and above all choices[].message.content exactly as generated, leading and trailing whitespace included.",
  fix: 'Forward the completion unchanged; `choices[].message.content` exactly as generated, leading and trailing whitespace and `null` included.',
  async run(ctx) {
    for (const content of CONTENTS) {
      const reply = chatJsonReply(chatCompletion({ content, finishReason: content === null ? 'tool_calls' : 'stop', extra: { gwc_future_field: { nested: [1, 2.5] } } }));
      const x = await exchange(ctx, chatBody(), chatSend({ reply }));
      const ev = exchangeEvidence(x);
      if (x.res.status !== 200) return fail(`the client got status ${x.res.status}`, { expected: '200', actual: String(x.res.status), evidence: ev });
      if (!/json/i.test(x.res.header('content-type') ?? '')) return fail('the content type changed', { expected: 'application/json', actual: x.res.header('content-type') ?? '(absent)', evidence: ev });
      const { diffs, parseError } = responseDiffs(x);
      if (parseError) return fail(`the client got a body that is not JSON: ${parseError}`, { evidence: ev });
      if (diffs.length) {
        const onContent = diffs.filter((d) => /^\/choices\/\d+\/message\/content$/.test(d.path));
        return fail(`the completion changed on the way: ${describeDiff(onContent[0] ?? diffs[0])}`, { expected: "the upstream's completion", actual: diffs.map(describeDiff).join('\n'), evidence: { diffs, ...ev } });
      }
    }
    return pass(`all ${CONTENTS.length} completions arrived unchanged, message content included`);
  },
});
