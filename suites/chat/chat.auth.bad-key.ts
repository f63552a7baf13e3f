import { defineCheck, fail, pass } from '../../src/check/check.js';
import { tryParse } from '../../src/core/json.js';
import { chatError, chatJsonReply } from '../../src/protocols/chat/index.js';
import { chatSend, exchange } from '../shared/exchange.js';
import { chatBody } from '../shared/protocols.js';
import { exchangeEvidence, excerpt } from '../shared/evidence.js';
import { substitutedKey } from '../shared/bad-key.js';

/** The key the provider rejects. */
const BAD_KEY = 'gwc-bad-key-0000000000000000';

export default defineCheck({
  id: 'chat.auth.bad-key',
  title: 'A chat request with a key the provider rejects gets HTTP 401 with a JSON error',
  requirements: ['ERR-AUTH-1'],
  level: 'MUST',
  protocol: 'chat',
  requirement:
    'A bad key on the chat-completions protocol ends in HTTP 401 with a JSON error body, whether the gateway refuses the key itself or forwards the provider\'s 401 (here the upstream answers 401 invalid_api_key); never a 500, a 200 or an HTML page. A gateway that forwards the request under a key of its own has accepted the bad key.',
  fix: 'Answer a bad key with HTTP 401 and a JSON error (or forward the provider\'s 401); never a 500, a 200 or an HTML page, and never forward the request under a key of your own in the client\'s place.',
  async run(ctx) {
    const x = await exchange(ctx, chatBody(), chatSend({ auth: 'none', headers: [['authorization', `Bearer ${BAD_KEY}`]], reply: chatJsonReply(chatError(401), 401) }));
    const ev = { forwarded: x.seen !== null, ...exchangeEvidence(x) };
    const substituted = substitutedKey(ctx, x.seen, BAD_KEY, 'a bad bearer key', ev);
    if (substituted) return substituted;
    const body = tryParse(x.res.text());
    const isJsonError = body.ok && body.node.t === 'obj' && body.node.entries.some(([k]) => k === 'error');
    if (x.res.status !== 401 || !isJsonError) {
      const html = /<html|<!doctype/i.test(x.res.text());
      return fail(`a bad key got ${x.res.status}${isJsonError ? ' with a JSON error' : html ? ' with an HTML page' : ' without a JSON error body'}`, {
        expected: '401 with a JSON error body',
        actual: `${x.res.status} ${x.res.header('content-type') ?? ''}: ${excerpt(x.res.text(), 200)}`,
        evidence: ev,
      });
    }
    return pass(`a bad key got 401 with a JSON error (${x.seen ? 'the upstream\'s answer, forwarded' : 'refused by the gateway itself'})`, ev);
  },
});
