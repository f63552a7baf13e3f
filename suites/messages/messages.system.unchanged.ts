import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeDiff } from '../../src/core/json-diff.js';
import { ATTRIBUTION } from './gen.js';
import { compareAt } from './common.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange, notForwarded } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';

const VARIANTS: Array<[string, unknown]> = [
  ['string', 'You are a helpful assistant. Réponds en français \u2028 s\'il te plaît.'],
  [
    'array',
    [
      { type: 'text', text: ATTRIBUTION },
      { type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral', ttl: '1h' } },
      { type: 'text', text: 'Project rules.', citations: null, x_note: { source: 'CLAUDE.md' } },
    ],
  ],
  ['single block', [{ type: 'text', text: 'Only block' }]],
];

export default defineCheck({
  id: 'messages.system.unchanged',
  title: 'system as a string, a block array and a single block arrives unchanged',
  requirements: ['MSG-SYS-1'],
  level: 'MUST',
  untranslatable: 'the form of `system` (string or blocks)',
  protocol: 'messages',
  requirement: 'system, as a string or an array, arrives with the same form, block order, block types and nested fields.',
  fix: 'Keep `system` in the form the client sent: a string stays a string, an array keeps its blocks, their order and their nested fields (`cache_control` included).',
  async run(ctx) {
    for (const [name, system] of VARIANTS) {
      const x = await exchange(ctx, messagesBody({ system }));
      if (!x.seen) return notForwarded(x);
      const c = compareAt(x, '/system');
      if (!c.ok) return fail(`system (${name}) changed: ${describeDiff(c.diffs[0])}`, { expected: JSON.stringify(system), actual: c.diffs.map(describeDiff).join('\n'), evidence: exchangeEvidence(x) });
    }
    return pass('system arrived unchanged as a string, an array and a single block');
  },
});
