import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeDiff } from '../../src/core/json-diff.js';
import { compareField } from './common.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { exchange, notForwarded } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { plural } from '../../src/core/words.js';

const H1 = { type: 'ephemeral', ttl: '1h' };
const M5 = { type: 'ephemeral', ttl: '5m' };
const EPH = { type: 'ephemeral' };
// At most four breakpoints per request in the real API; this body is for the gateway, which must not care.
const BODY = JSON.stringify({
  model: 'claude-sonnet-4-5-20250929',
  max_tokens: 1024,
  system: [{ type: 'text', text: 'sys one', cache_control: H1 }, { type: 'text', text: 'sys two', cache_control: EPH }],
  tools: [{ name: 'Read', description: 'read a file', input_schema: { type: 'object', properties: {} }, cache_control: H1 }],
  messages: [
    { role: 'user', content: [{ type: 'text', text: `${CASE_PLACEHOLDER} cache`, cache_control: M5 }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' }, cache_control: EPH }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'Read', input: { path: 'a' }, cache_control: M5 }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'file', cache_control: M5 }, { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'doc' }, cache_control: EPH }] },
  ],
});
const POINTERS = [
  '/system/0/cache_control',
  '/system/1/cache_control',
  '/tools/0/cache_control',
  '/messages/0/content/0/cache_control',
  '/messages/0/content/1/cache_control',
  '/messages/1/content/0/cache_control',
  '/messages/2/content/0/cache_control',
  '/messages/2/content/1/cache_control',
];

export default defineCheck({
  id: 'messages.cache.control',
  title: 'cache_control with and without ttl on system, tool, text, image, tool_use, tool_result and document blocks arrives unchanged',
  requirements: ['MSG-CACHE-1'],
  level: 'MUST',
  untranslatable: '`cache_control` markers',
  protocol: 'messages',
  requirement: 'cache_control objects, ttl included, arrive unchanged wherever they stand: system, message and tool blocks.',
  fix: 'Forward `cache_control` objects unchanged wherever they stand, `ttl` included; do not strip them from tools, images or documents.',
  async run(ctx) {
    const x = await exchange(ctx, BODY);
    if (!x.seen) return notForwarded(x);
    const diffs = POINTERS.flatMap((p) => compareField(x, p).diffs);
    if (!diffs.length) return pass(`all ${POINTERS.length} cache_control objects arrived unchanged`);
    return fail(`${plural(diffs.length, 'cache_control difference')}: ${diffs.map((d) => d.path).join(', ')}`, { expected: POINTERS.join('\n'), actual: diffs.map(describeDiff).join('\n'), evidence: exchangeEvidence(x) });
  },
});
