import { defineCheck, fail, pass } from '../../src/check/check.js';
import { headerValues } from '../../src/upstream/record.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange, notForwarded } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';

export default defineCheck({
  id: 'messages.headers.version',
  title: 'anthropic-version 2023-06-01 and a future value arrive exactly as sent',
  requirements: ['MSG-HDR-1'],
  level: 'MUST',
  area: 'messages',
  profile: 'default',
  untranslatable: 'the `anthropic-version` header',
  protocol: 'messages',
  requirement: 'anthropic-version is forwarded as received, whatever its value, never forced to another.',
  async run(ctx) {
    for (const version of ['2023-06-01', '2099-12-31']) {
      const x = await exchange(ctx, messagesBody({}), { version });
      if (!x.seen) return notForwarded(x);
      const got = headerValues(x.seen, 'anthropic-version');
      const arrived = got.length === 0 ? 'no anthropic-version' : got.length === 1 ? `anthropic-version: ${got[0]}` : `${got.length} anthropic-version headers (${got.join(', ')})`;
      if (got.length !== 1 || got[0] !== version) return fail(`sent anthropic-version: ${version}, the upstream received ${arrived}`, { expected: version, actual: got.join(', ') || '(absent)', evidence: exchangeEvidence(x) });
    }
    return pass('anthropic-version arrived unchanged for the current and a future value');
  },
});
