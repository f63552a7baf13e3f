import { defineCheck, fail, pass } from '../../src/check/check.js';
import { CACHE_USAGE, messageBody } from '../../src/protocols/messages/index.js';
import { compareField } from './common.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange, notForwarded, responseDiffs } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { listValues } from '../shared/headers.js';

const BETA = 'extended-cache-ttl-2025-04-11';

export default defineCheck({
  id: 'messages.cache.one-hour',
  title: 'A one-hour cached request (ttl 1h blocks, the extended-cache-ttl beta, 1h usage fields) passes intact',
  requirements: ['MSG-CACHE-2'],
  level: 'INFO',
  untranslatable: '`cache_control` with its `ttl` and the cache usage fields',
  protocol: 'messages',
  requirement: 'Every part one-hour caching needs passes: ttl "1h" blocks, the extended-cache-ttl beta value, and the creation and read usage fields.',
  fix: 'For one-hour caching to work, forward `ttl: "1h"` blocks, the `extended-cache-ttl-*` value of `anthropic-beta` and the one-hour usage fields unchanged.',
  async run(ctx) {
    const sent = messagesBody({
      system: [{ type: 'text', text: 'long stable prefix', cache_control: { type: 'ephemeral', ttl: '1h' } }],
      tools: [{ name: 'Read', description: 'read', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral', ttl: '1h' } }],
    });
    const x = await exchange(ctx, sent, { headers: [['anthropic-beta', `claude-code-20250219,${BETA}`]], reply: (c) => c.upstream.next().json(messageBody({ usage: CACHE_USAGE })) });
    if (!x.seen) return notForwarded(x);
    const broken: string[] = [];
    if (!compareField(x, '/system/0/cache_control').ok || !compareField(x, '/tools/0/cache_control').ok) broken.push('ttl "1h" cache_control blocks');
    if (!listValues(x.seen, 'anthropic-beta').includes(BETA)) broken.push(`the ${BETA} beta value`);
    if (responseDiffs(x, '/usage').diffs.some((d) => d.kind !== 'added')) broken.push('the cache usage fields');
    if (!broken.length) return pass('one-hour caching path intact: 1h blocks, beta value and usage fields all passed');
    return fail(`one-hour caching cannot work through this gateway: lost ${broken.join(', ')}; five-minute behaviour would apply`, { expected: 'all three parts intact', actual: broken.join('; '), evidence: exchangeEvidence(x) });
  },
});
