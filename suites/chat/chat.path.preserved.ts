import { defineCheck, fail, pass } from '../../src/check/check.js';
import { chatCompletion, chatJsonReply } from '../../src/protocols/chat/index.js';
import { chatSend, exchange, notForwarded } from '../shared/exchange.js';
import { CHAT_PATH, chatBody } from '../shared/protocols.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { pathChange } from '../shared/route.js';

export default defineCheck({
  id: 'chat.path.preserved',
  title: 'POST /v1/chat/completions arrives at /v1/chat/completions',
  requirements: ['CHAT-PATH-1'],
  level: 'MUST',
  untranslatable: 'the path as the client sent it',
  protocol: 'chat',
  requirement: 'A chat-completions request sent to {base}/v1/chat/completions reaches the upstream at /v1/chat/completions: no doubled /v1, no lost or added segment.',
  fix: 'Forward `/v1/chat/completions` as received; set the OpenAI base URL to the host root so `/v1` is not doubled or lost.',
  async run(ctx) {
    const x = await exchange(ctx, chatBody(), chatSend({ reply: chatJsonReply(chatCompletion()) }));
    if (!x.seen) return notForwarded(x);
    if (x.seen.url !== CHAT_PATH) return fail(pathChange(x.seen.method, CHAT_PATH, x.seen.url), { expected: CHAT_PATH, actual: x.seen.url, evidence: exchangeEvidence(x) });
    return pass(`arrived as POST ${CHAT_PATH}`);
  },
});
