// ISO-1 on answers to POST: the same messages request, answered with cache-control: max-age,
// sent with the run's key (as Bearer, and as x-api-key), then with another key in the same
// style and with none: a cache keyed on the body alone, or on one credential header, serves
// the first key's answer to the others.
import { defineCheck } from '../../src/check/check.js';
import { messagesHeaders } from '../../src/client/gateway.js';
import { messageBody } from '../../src/protocols/messages/index.js';
import { CLAUDE_CODE_PAIRS, isolationPairs, judgePairs } from '../shared/isolation.js';
import { MESSAGES_PATH, messagesBody } from '../shared/protocols.js';

export default defineCheck({
  id: 'messages.response.credential-cache',
  title: 'A messages answer the upstream marks cacheable is served neither to another key nor to a request without one',
  requirements: ['ISO-1'],
  level: 'MUST',
  untranslatable: 'the upstream\'s cache-control on the answer',
  protocol: 'messages',
  requirement:
    "The same POST /v1/messages body sent with the run's key (as Bearer, and as x-api-key), answered with cache-control: max-age, then with another key in the same style, and with no credential: each later request reaches the upstream with its own credential (or is refused), never answered from what the first key got (ISO-1).",
  fix: 'Key every cached answer on the full credential, whichever header or parameter carries it (`Authorization`, `x-api-key`, `x-goog-api-key`, `?key=`), and never serve a cached answer to a request without one; better, cache no answer to a POST at all. A key made of the body, or of the `Authorization` header alone, hands one user\'s answer to every `x-api-key` client (Claude Code sends ANTHROPIC_API_KEY as `x-api-key`).',
  async run(ctx) {
    const req = { method: 'POST' as const, path: MESSAGES_PATH, headers: messagesHeaders(), body: messagesBody({}) };
    const reply = () => ctx.upstream.next().json(messageBody(), { headers: [['cache-control', 'max-age=300']] });
    const results = await isolationPairs(ctx, req, CLAUDE_CODE_PAIRS, reply);
    return judgePairs(results, 'an answer to the same body');
  },
});
