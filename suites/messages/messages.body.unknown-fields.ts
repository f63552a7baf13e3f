import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeDiff } from '../../src/core/json-diff.js';
import { compareField } from './common.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { exchange, notForwarded } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';

// One unknown field at every level a gateway might validate: top level, nested object,
// message, content block, nested block, system block, tool, tool schema, metadata.
const BODY = JSON.stringify({
  model: 'claude-sonnet-4-5-20250929',
  max_tokens: 1024,
  x_future_top: { enabled: true, level: 3 },
  messages: [
    {
      role: 'user',
      x_future_message: 'm',
      content: [
        { type: 'text', text: `${CASE_PLACEHOLDER} unknown fields`, x_future_block: [1, 2] },
        { type: 'tool_result', tool_use_id: 'toolu_01', content: [{ type: 'text', text: 'out', x_future_nested: null }] },
      ],
    },
  ],
  system: [{ type: 'text', text: 'sys', x_future_system: { a: 1 } }],
  tools: [{ name: 'Read', description: 'read', input_schema: { type: 'object', properties: {}, x_future_schema: 'kept' }, x_future_tool: 'defer' }],
  metadata: { user_id: 'u1', x_future_meta: 'kept' },
  context_management: { edits: [] },
});
const POINTERS = [
  '/x_future_top',
  '/messages/0/x_future_message',
  '/messages/0/content/0/x_future_block',
  '/messages/0/content/1/content/0/x_future_nested',
  '/system/0/x_future_system',
  '/tools/0/x_future_tool',
  '/tools/0/input_schema/x_future_schema',
  '/metadata/x_future_meta',
];

export default defineCheck({
  id: 'messages.body.unknown-fields',
  title: 'Unknown fields at every level of a messages body are forwarded or refused with a JSON error',
  requirements: ['MSG-BODY-3'],
  level: 'MUST',
  untranslatable: 'fields the other protocol has no place for',
  protocol: 'messages',
  requirement: 'Fields the gateway does not know are forwarded unchanged, or the request is refused with a JSON error naming the field; they are never dropped silently.',
  fix: 'Do not validate the body against a fixed schema that strips fields: pass unknown fields through, or refuse the request with a JSON 400 that names the field.',
  async run(ctx) {
    const x = await exchange(ctx, BODY, { headers: [['anthropic-beta', 'context-management-2025-06-27']] });
    if (!x.seen) {
      const text = x.res.text();
      const named = POINTERS.find((p) => text.includes(p.split('/').pop()!));
      if (x.res.status >= 400 && x.res.status < 500 && /json/.test(x.res.header('content-type') ?? '') && named)
        return pass(`refused with an explicit JSON error naming ${named.split('/').pop()} (status ${x.res.status})`, exchangeEvidence(x));
      return notForwarded(x);
    }
    const lost = POINTERS.map((p) => compareField(x, p)).filter((c) => !c.ok).flatMap((c) => c.diffs);
    if (!lost.length) return pass(`all ${POINTERS.length} unknown fields arrived unchanged`);
    return fail(`${lost.length} of ${POINTERS.length} unknown fields were dropped or changed: ${lost.map((d) => d.path).join(', ')}`, {
      expected: POINTERS.join('\n'),
      actual: lost.map(describeDiff).join('\n'),
      evidence: exchangeEvidence(x),
    });
  },
});
