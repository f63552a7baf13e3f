import { defineCheck, fail, pass } from '../../src/check/check.js';
import { retryGuidanceHeaders } from '../../src/protocols/messages/index.js';
import { clientEvidence } from '../shared/evidence.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange } from '../shared/exchange.js';

export default defineCheck({
  id: 'errors.passthrough.retry-headers',
  title: 'A 429 and a 529 keep retry-after, retry-after-ms, x-should-retry, request-id and the anthropic-ratelimit-* headers',
  requirements: ['ERR-PASS-2'],
  level: 'MUST',
  untranslatable: 'the messages protocol\'s own rate-limit and retry headers',
  protocol: 'messages',
  requirement:
    'On a rate-limit (429) or overloaded (529) error the retry guidance reaches the client with its values unchanged: retry-after, retry-after-ms, x-should-retry, request-id and every anthropic-ratelimit-* header the upstream sent (ERR-PASS-2).',
  fix: 'Forward the retry guidance of 429 and 529 answers: `retry-after`, `retry-after-ms`, `x-should-retry`, `request-id` and every `anthropic-ratelimit-*` header. Do not strip unknown response headers.',
  async run(ctx) {
    const lost: string[] = [];
    const kept: Record<string, number> = {};
    let evidence;
    for (const status of [429, 529]) {
      const sent = retryGuidanceHeaders(status);
      const x = await exchange(ctx, messagesBody({}), { reply: (c) => c.upstream.next().error(status, { headers: sent }) });
      const problems: string[] = [];
      if (x.res.status !== status) problems.push(`status became ${x.res.status}`);
      for (const [name, value] of sent) {
        const got = x.res.rawHeaders.filter(([k]) => k.toLowerCase() === name).map(([, v]) => v);
        if (!got.length) problems.push(`${name} missing`);
        else if (got.length > 1 || got[0] !== value) problems.push(`${name}: ${got.join(', ')} (sent ${value})`);
      }
      kept[String(status)] = sent.length - problems.filter((p) => !p.startsWith('status')).length;
      if (problems.length) {
        lost.push(`${status}: ${problems.join('; ')}`);
        evidence ??= { sentHeaders: sent, client: clientEvidence(x.res, 600) };
      }
    }
    if (lost.length)
      return fail(`retry guidance did not reach the client unchanged: ${lost[0]}`, { expected: 'every retry and rate-limit header with its value', actual: lost.join('\n'), evidence: { ...evidence, keptOf: kept } });
    return pass(`all retry and rate-limit headers (${kept['429']} on the 429, ${kept['529']} on the 529) arrived unchanged`, { keptOf: kept });
  },
});
