import { defineCheck, type Verdict } from '../../src/core/check.js';
import { describeByteDiff, diffBytes } from '../../src/core/compare.js';
import { checkProperty, exchange, exchangeEvidence, type Exchange, isExplicitRefusal, notForwarded, propertyVerdict } from './common.js';
import { bodyText, messagesBody } from './gen.js';
import { messageFixtures } from './fixtures.js';

function judgeBytes(x: Exchange): Verdict | 'refused' {
  if (!x.seen) return isExplicitRefusal(x) ? 'refused' : notForwarded(x);
  const d = diffBytes(Buffer.from(x.sent, 'utf8'), x.seen.body);
  if (!d) return { ok: true, message: 'body arrived byte for byte' };
  return { ok: false, message: describeByteDiff(d), expected: `${d.expectedLength} bytes as sent`, actual: `${d.actualLength} bytes, first difference at offset ${d.offset}`, evidence: { byteDiff: d, ...exchangeEvidence(x) } };
}

export default defineCheck({
  id: 'messages.body.bytes',
  title: 'Generated and real-looking messages bodies arrive byte for byte',
  requirements: ['MSG-BODY-2'],
  level: 'SHOULD',
  area: 'messages',
  profile: 'core',
  protocol: 'messages',
  requirement: 'The request body reaches the upstream byte for byte; a gateway that re-serialises must say so and audit it (spec 2.1).',
  async run(ctx) {
    for (const f of messageFixtures()) {
      const v = judgeBytes(await exchange(ctx, f.text));
      if (v !== 'refused' && !v.ok) return { ...v, message: `fixture ${f.name}: ${v.message}` };
    }
    return propertyVerdict(await checkProperty(ctx, messagesBody, bodyText, judgeBytes), 'byte equality');
  },
});
