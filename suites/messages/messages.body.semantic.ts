import { defineCheck, type Verdict } from '../../src/core/check.js';
import { compareJsonText, describeDiff } from '../../src/core/compare.js';
import { exchangeEvidence, type Exchange, fixturesAndProperty, isExplicitRefusal, notForwarded } from './common.js';
import { messageFixtures } from './fixtures.js';

/** Semantic equality (lossless numbers, key order kept) of what was sent and what arrived. */
export function judgeSemantic(x: Exchange): Verdict | 'refused' {
  if (!x.seen) return isExplicitRefusal(x) ? 'refused' : notForwarded(x);
  const c = compareJsonText(x.sent, x.seen.body.toString('utf8'));
  if (c.parseError) return { ok: false, message: `the upstream received a body that is not JSON: ${c.parseError}`, evidence: exchangeEvidence(x) };
  if (c.equal) return { ok: true, message: 'body arrived semantically unchanged' };
  return {
    ok: false,
    message: `the body changed on the way: ${describeDiff(c.diffs[0])}${c.diffs.length > 1 ? ` (+${c.diffs.length - 1} more)` : ''}`,
    expected: 'the body as sent (same keys, key order, values, array order and length)',
    actual: c.diffs.map(describeDiff).join('\n'),
    evidence: { diffs: c.diffs, ...exchangeEvidence(x) },
  };
}

export default defineCheck({
  id: 'messages.body.semantic',
  title: 'Generated and real-looking messages bodies arrive with the same JSON content',
  requirements: ['MSG-BODY-1'],
  level: 'MUST',
  area: 'messages',
  profile: 'core',
  protocol: 'messages',
  requirement: 'The request body reaches the upstream semantically unchanged: keys, key order, values (numbers compared exactly), array order and length (spec 2.1).',
  async run(ctx) {
    return fixturesAndProperty(ctx, messageFixtures(), judgeSemantic, 'semantic equality');
  },
});
