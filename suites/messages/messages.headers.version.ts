// MSG-HDR-1: anthropic-version reaches the upstream as sent, the current and a future value, on
// POST /v1/messages and on POST /v1/messages/count_tokens (a gateway may route the count apart).
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { headerValues } from '../../src/upstream/record.js';
import { countTokensBody } from '../../src/protocols/messages/index.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange, notForwarded, type SendOptions } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';

const COUNT_PATH = '/v1/messages/count_tokens';

export default defineCheck({
  id: 'messages.headers.version',
  title: 'anthropic-version 2023-06-01 and a future value arrive exactly as sent, on messages and on count_tokens',
  requirements: ['MSG-HDR-1'],
  level: 'MUST',
  untranslatable: 'the `anthropic-version` header',
  protocol: 'messages',
  requirement: 'anthropic-version is forwarded as received, whatever its value, never forced to another, on POST /v1/messages and on POST /v1/messages/count_tokens.',
  fix: 'Forward `anthropic-version` as received; do not pin or overwrite it.',
  async run(ctx) {
    const count = (version: string): SendOptions => ({ endpoint: { path: COUNT_PATH, headers: [['anthropic-version', version]] }, reply: (c) => c.upstream.next().json(countTokensBody(17)) });
    const unforwarded = new Set<number>();
    for (const [where, version] of [['messages', '2023-06-01'], ['messages', '2099-12-31'], ['count_tokens', '2023-06-01'], ['count_tokens', '2099-12-31']]) {
      const x = await exchange(ctx, messagesBody({}), where === 'messages' ? { version } : count(version));
      // A gateway that answers count_tokens itself forwards no header to judge (MSG-CT-1 judges its answer).
      if (!x.seen && where === 'count_tokens') {
        unforwarded.add(x.res.status);
        continue;
      }
      if (!x.seen) return notForwarded(x);
      const got = headerValues(x.seen, 'anthropic-version');
      const arrived = got.length === 0 ? 'no anthropic-version' : got.length === 1 ? `anthropic-version: ${got[0]}` : `${got.length} anthropic-version headers (${got.join(', ')})`;
      if (got.length !== 1 || got[0] !== version) return fail(`sent anthropic-version: ${version}${where === 'messages' ? '' : ` on ${where}`}, the upstream received ${arrived}`, { expected: version, actual: got.join(', ') || '(absent)', evidence: exchangeEvidence(x) });
    }
    const counts = unforwarded.size ? ` (count_tokens was not forwarded: the gateway answered ${[...unforwarded].join(', ')} itself)` : ', on messages and on count_tokens';
    return pass(`anthropic-version arrived unchanged for the current and a future value${counts}`);
  },
});
