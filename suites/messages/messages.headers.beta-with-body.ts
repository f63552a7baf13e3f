import { defineCheck, fail, pass } from '../../src/check/check.js';
import { messageBody } from '../../src/protocols/messages/index.js';
import { bodyHasField } from '../../src/core/json.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange, notForwarded, parseSeen } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { listValues } from '../shared/headers.js';

// Body fields that the real API refuses ("Extra inputs are not permitted") without their beta.
// `tools[].defer_loading`: a key of any tool (Claude Code 2.1.330 sends it on a deferred tool).
const PAIRS: Record<string, string> = {
  context_management: 'context-management-2025-06-27',
  output_config: 'effort-2025-11-24',
  'tools[].defer_loading': 'advanced-tool-use-2025-11-20',
};

/** Two tools as the real client sends them: one loaded, one deferred. */
const TOOLS = [
  { name: 'Bash', description: 'Runs a command.', input_schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } },
  { name: 'DeferredToolPlaceholder', description: 'A tool loaded on demand.', input_schema: { type: 'object', properties: {} }, defer_loading: true },
];

export default defineCheck({
  id: 'messages.headers.beta-with-body',
  title: 'context_management, output_config and tools[].defer_loading travel with the beta values that enable them',
  requirements: ['MSG-HDR-3'],
  level: 'MUST',
  untranslatable: 'the `anthropic-beta` header beside its body fields',
  protocol: 'messages',
  requirement: 'A beta value and the body field it enables reach the upstream together; the gateway never forwards one without the other.',
  fix: 'Forward the body fields and the `anthropic-beta` values together, or drop neither. Usually the fix is to stop filtering `anthropic-beta` (see messages.headers.beta).',
  async run(ctx) {
    const sent = messagesBody({ tools: TOOLS, context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] }, output_config: { effort: 'high' } });
    const x = await exchange(ctx, sent, {
      headers: [['anthropic-beta', `claude-code-20250219,${Object.values(PAIRS).join(',')}`]],
      reply: (c) => c.upstream.next().json(messageBody(), { betaForField: PAIRS }),
    });
    if (!x.seen) return notForwarded(x);
    const seen = parseSeen(x);
    const betas = listValues(x.seen, 'anthropic-beta');
    const split = Object.entries(PAIRS).filter(([field, beta]) => (!!seen && bodyHasField(seen, field)) !== betas.includes(beta));
    if (!split.length) return pass(`each field arrived with its beta value (upstream answered ${x.res.status})`);
    // A field without its beta is refused by the real API; a beta without its field is a feature silently lost.
    const headerLost = split.filter(([field]) => !!seen && bodyHasField(seen, field));
    const fieldLost = split.filter(([field]) => !(!!seen && bodyHasField(seen, field)));
    const parts = [
      ...(headerLost.length ? [`the anthropic-beta value${headerLost.length > 1 ? 's' : ''} ${headerLost.map(([, b]) => b).join(', ')} removed while ${headerLost.map(([f]) => f).join(', ')} arrived in the body: the real API answers 400 "Extra inputs are not permitted"`] : []),
      ...(fieldLost.length ? [`the body field${fieldLost.length > 1 ? 's' : ''} ${fieldLost.map(([f]) => f).join(', ')} dropped while anthropic-beta kept ${fieldLost.map(([, b]) => b).join(', ')}: the feature is silently lost`] : []),
    ];
    return fail(`forwarded without their partner: ${parts.join('; ')}`, {
      expected: 'each field together with its beta value, or neither',
      actual: `anthropic-beta at the upstream: ${betas.join(',') || '(absent)'}; client got ${x.res.status}`,
      evidence: exchangeEvidence(x),
    });
  },
});
