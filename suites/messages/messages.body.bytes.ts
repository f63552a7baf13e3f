import { defineCheck, type Verdict } from '../../src/check/check.js';
import { describeByteDiff, diffBytes } from '../../src/core/json-diff.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { type Exchange, isExplicitRefusal, notForwarded } from '../shared/exchange.js';
import { PROPERTY_TIME_LIMIT } from '../shared/property.js';
import { messagesBodyProperty } from './common.js';

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
  timeLimitMs: PROPERTY_TIME_LIMIT,
  level: 'SHOULD',
  untranslatable: 'the body\'s bytes',
  protocol: 'messages',
  requirement: 'The request body reaches the upstream byte for byte; a gateway that re-serialises must say so and audit it.',
  fix: 'Stream the request body through unchanged instead of re-serialising it. A gateway that must edit the body should say so and audit what it changes (the evidence names the first differing byte).',
  async run(ctx) {
    return messagesBodyProperty(ctx, judgeBytes, 'byte equality');
  },
});
