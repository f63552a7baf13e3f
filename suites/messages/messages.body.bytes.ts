import { defineCheck, type Verdict } from '../../src/core/check.js';
import { describeByteDiff, diffBytes } from '../../src/core/compare.js';
import { exchangeEvidence, type Exchange, fixturesAndProperty, isExplicitRefusal, notForwarded } from './common.js';
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
    return fixturesAndProperty(ctx, messageFixtures(), judgeBytes, 'byte equality');
  },
});
