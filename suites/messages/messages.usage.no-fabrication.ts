import { defineCheck, fail, pass } from '../../src/check/check.js';
import { messageBody } from '../../src/protocols/messages/index.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { parseJson } from '../../src/core/json.js';

const COLD = { input_tokens: 3000, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 20 };
const NO_CACHE_FIELDS = { input_tokens: 3000, output_tokens: 20 };

export default defineCheck({
  id: 'messages.usage.no-fabrication',
  title: 'A reply with no cache reads reaches the client with no cache reads',
  requirements: ['MSG-USAGE-2'],
  level: 'MUST',
  protocol: 'messages',
  requirement: 'The gateway never reports cache-read tokens the upstream did not report.',
  fix: 'Report only the usage the upstream reported; never compute or fill in cache-read tokens.',
  async run(ctx) {
    for (const usage of [COLD, NO_CACHE_FIELDS]) {
      const x = await exchange(ctx, messagesBody({}), { reply: (c) => c.upstream.next().json(messageBody({ usage: usage as never })) });
      let got: unknown;
      try {
        got = parseJson(x.res.text())?.usage?.cache_read_input_tokens;
      } catch {
        return fail('the response is not JSON', { evidence: exchangeEvidence(x) });
      }
      const sent = (usage as { cache_read_input_tokens?: number }).cache_read_input_tokens;
      if (typeof got === 'number' && got > (sent ?? 0))
        return fail(`the client was told of ${got} cache-read tokens; the upstream reported ${sent ?? 'none'}`, { expected: String(sent ?? '(absent)'), actual: String(got), evidence: exchangeEvidence(x) });
    }
    return pass('no cache reads were invented');
  },
});
