import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeDiff } from '../../src/core/json-diff.js';
import { compareAt } from './common.js';
import { fixture } from './fixtures.js';
import { exchange, notForwarded } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';

const ARRAYS = ['/messages', '/system', '/stop_sequences', '/tools'];

export default defineCheck({
  id: 'messages.body.arrays',
  title: 'Duplicate blocks, duplicate messages and empty arrays arrive as sent',
  requirements: ['MSG-BODY-4'],
  level: 'MUST',
  untranslatable: 'the body\'s arrays',
  protocol: 'messages',
  requirement: 'Arrays are not flattened, sorted or de-duplicated: repeated blocks and messages and empty arrays arrive in order and in number.',
  fix: 'Do not merge, sort or de-duplicate arrays (messages, content blocks, tools); empty arrays stay empty arrays.',
  async run(ctx) {
    const x = await exchange(ctx, fixture('duplicates.json'));
    if (!x.seen) return notForwarded(x);
    const diffs = ARRAYS.flatMap((p) => compareAt(x, p).diffs);
    if (!diffs.length) return pass('messages, content blocks, system blocks and empty arrays arrived in order and number');
    return fail(`arrays changed: ${describeDiff(diffs[0])}`, { expected: 'every array as sent, duplicates included', actual: diffs.map(describeDiff).join('\n'), evidence: exchangeEvidence(x) });
  },
});
