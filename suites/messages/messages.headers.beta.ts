// MSG-HDR-2: anthropic-beta lists reach the upstream whole and in order, on POST /v1/messages and
// on POST /v1/messages/count_tokens (a gateway may route the count apart).
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { headerValues } from '../../src/upstream/record.js';
import { ANTHROPIC_VERSION } from '../../src/client/gateway.js';
import { countTokensBody } from '../../src/protocols/messages/index.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange, notForwarded, type SendOptions } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { listValues } from '../shared/headers.js';

// Real values Claude Code sends, plus values no gateway can know yet.
const CASES = [
  'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27,fine-grained-tool-streaming-2025-05-14,effort-2025-11-24',
  'oauth-2025-04-20, context-1m-2025-08-07, extended-cache-ttl-2025-04-11, gwc-future-feature-2099-01-01',
  // The list Claude Code 2.1.330 sends (four values newer than the ones above).
  'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27,per-turn-control-2026-07-01,mid-conversation-tool-changes-2026-07-01,thinking-token-count-2026-05-13,advanced-tool-use-2025-11-20,effort-2025-11-24',
];

const COUNT_PATH = '/v1/messages/count_tokens';
/** How a beta list goes on each endpoint: to /v1/messages, and to count_tokens. */
const SENDS: Array<[string, (beta: string) => SendOptions]> = [
  ['messages', (beta) => ({ headers: [['anthropic-beta', beta]] })],
  ['count_tokens', (beta) => ({ endpoint: { path: COUNT_PATH, headers: [['anthropic-version', ANTHROPIC_VERSION], ['anthropic-beta', beta]] }, reply: (c) => c.upstream.next().json(countTokensBody(17)) })],
];

export default defineCheck({
  id: 'messages.headers.beta',
  title: 'anthropic-beta lists with known, new and unknown values arrive complete and in order, on messages and on count_tokens',
  requirements: ['MSG-HDR-2'],
  level: 'MUST',
  untranslatable: 'the `anthropic-beta` header',
  protocol: 'messages',
  requirement: 'anthropic-beta is forwarded as received, on POST /v1/messages and on POST /v1/messages/count_tokens: every value, unknown ones included, in order; never filtered by an allow-list or downgraded.',
  fix: 'Forward `anthropic-beta` as received, every value and in order. Remove any allow-list of beta values: a dropped value silently turns off a feature the body still asks for.',
  async run(ctx) {
    const notes: string[] = [];
    for (const [where, send] of SENDS) for (const beta of CASES) {
      const x = await exchange(ctx, messagesBody({}), send(beta));
      // A gateway that answers count_tokens itself forwards no header to judge (MSG-CT-1 judges its answer).
      if (!x.seen && where === 'count_tokens') {
        notes.push(`count_tokens not forwarded (the gateway answered ${x.res.status} itself)`);
        continue;
      }
      if (!x.seen) return notForwarded(x);
      const on = where === 'messages' ? '' : ` on ${where}`;
      const want = beta.split(',').map((v) => v.trim());
      const got = listValues(x.seen, 'anthropic-beta');
      if (want.join(',') !== got.join(',')) {
        const missing = want.filter((v) => !got.includes(v));
        return fail(missing.length ? `anthropic-beta${on} lost ${missing.join(', ')}` : `anthropic-beta values${on} changed order or were added`, { expected: want.join(','), actual: got.join(',') || '(absent)', evidence: exchangeEvidence(x) });
      }
      const raw = headerValues(x.seen, 'anthropic-beta');
      if (raw.length !== 1 || raw[0] !== beta) notes.push(`same values${on}, different spelling: ${JSON.stringify(raw)}`);
    }
    return pass(`every beta value arrived in order on every request forwarded${notes.length ? ` (${notes.join('; ')})` : ''}`);
  },
});
