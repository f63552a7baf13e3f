import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeDiff } from '../../src/core/json-diff.js';
import { CACHE_USAGE, messageBody } from '../../src/protocols/messages/index.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange, responseDiffs } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';

export default defineCheck({
  id: 'messages.usage.cache-fields',
  title: 'Cache creation and cache read usage fields in a JSON response reach the client exactly',
  requirements: ['MSG-USAGE-1'],
  level: 'MUST',
  untranslatable: 'the usage fields the other protocol has no place for (cache creation)',
  protocol: 'messages',
  requirement: 'Usage fields, including cache_creation_input_tokens, cache_read_input_tokens and the nested cache_creation object, reach the client as the upstream sent them.',
  fix: 'Pass the `usage` object through as the upstream sent it, including `cache_creation_input_tokens`, `cache_read_input_tokens` and the nested `cache_creation` object.',
  async run(ctx) {
    const x = await exchange(ctx, messagesBody({}), { reply: (c) => c.upstream.next().json(messageBody({ usage: CACHE_USAGE })) });
    const { diffs: all, parseError } = responseDiffs(x, '/usage');
    if (parseError) return fail(`the response is not JSON: ${parseError}`, { evidence: exchangeEvidence(x) });
    // A field the gateway adds (e.g. its own `cost`) leaves the upstream's fields intact: MSG-RESP-1 reports it.
    const added = all.filter((d) => d.kind === 'added').map((d) => d.path);
    const diffs = all.filter((d) => d.kind !== 'added');
    if (!diffs.length) return pass(`every usage field arrived unchanged${added.length ? ` (the gateway added ${added.join(', ')})` : ''}`);
    return fail(`usage changed: ${describeDiff(diffs[0])}`, { expected: JSON.stringify(CACHE_USAGE), actual: diffs.map(describeDiff).join('\n'), evidence: exchangeEvidence(x) });
  },
});
