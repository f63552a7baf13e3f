import { defineCheck, fail, pass } from '../../src/check/check.js';
import { retryGuidanceHeaders } from '../../src/protocols/messages/index.js';
import { clientEvidence } from '../shared/evidence.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange } from '../shared/exchange.js';
import { translation } from '../shared/route.js';

/** The retry guidance every protocol's clients read, judged on a translated route too (the anthropic-ratelimit-* headers and request-id are the messages protocol's own). */
const EVERY_PROTOCOL = new Set(['retry-after', 'retry-after-ms', 'x-should-retry']);

export default defineCheck({
  id: 'errors.passthrough.retry-headers',
  title: 'A 429 and a 529 keep retry-after, retry-after-ms, x-should-retry, request-id and the anthropic-ratelimit-* headers',
  requirements: ['ERR-PASS-2'],
  level: 'MUST',
  protocol: 'messages',
  requirement:
    'On a rate-limit (429) or overloaded (529) error the retry guidance reaches the client with its values unchanged: retry-after, retry-after-ms, x-should-retry, request-id and every anthropic-ratelimit-* header the upstream sent (ERR-PASS-2). On a translated route the status, retry-after, retry-after-ms and x-should-retry are judged (they mean the same in every protocol).',
  fix: 'Forward the retry guidance of 429 and 529 answers: `retry-after`, `retry-after-ms`, `x-should-retry`, `request-id` and every `anthropic-ratelimit-*` header. Do not strip unknown response headers.',
  async run(ctx) {
    const lost: string[] = [];
    const kept: Record<string, number> = {};
    const routes = new Set<string>();
    let evidence;
    for (const status of [429, 529]) {
      const scripted = retryGuidanceHeaders(status);
      const x = await exchange(ctx, messagesBody({}), { reply: (c) => c.upstream.next().error(status, { headers: scripted }) });
      // Across a translation the status and the guidance of every protocol keep their meaning.
      const t = translation('messages', x.seen);
      if (t) routes.add(`messages → ${t.to}`);
      const sent = t ? scripted.filter(([k]) => EVERY_PROTOCOL.has(k)) : scripted;
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
      return fail(`retry guidance did not reach the client unchanged${routes.size ? ` on the translated route ${[...routes].join(', ')}` : ''}: ${lost[0]}`, { expected: 'every retry and rate-limit header with its value', actual: lost.join('\n'), evidence: { ...evidence, keptOf: kept } });
    if (routes.size) return pass(`on the translated route ${[...routes].join(', ')} the status and retry-after, retry-after-ms and x-should-retry arrived unchanged on the 429 and the 529 (the anthropic-ratelimit-* headers and request-id are the messages protocol's own, not judged across a translation)`, { keptOf: kept });
    return pass(`all retry and rate-limit headers (${kept['429']} on the 429, ${kept['529']} on the 529) arrived unchanged`, { keptOf: kept });
  },
});
