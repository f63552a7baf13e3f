import { defineCheck, fail, pass } from '../../src/check/check.js';
import { ANTHROPIC_VERSION } from '../../src/client/gateway.js';
import { headerValues } from '../../src/upstream/record.js';
import { exchange, notForwarded } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { listValues } from '../shared/headers.js';
import { vertexSend, vertexBody } from './common.js';

// The list Claude Code sends on Vertex, and one with values no gateway can know yet.
const CASES = [
  'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27,fine-grained-tool-streaming-2025-05-14',
  'context-1m-2025-08-07, extended-cache-ttl-2025-04-11, gwc-future-feature-2099-01-01',
];

export default defineCheck({
  id: 'vertex.headers.anthropic',
  title: 'anthropic-version and anthropic-beta (known and unknown values) reach the upstream of a rawPredict request unchanged',
  requirements: ['VTX-HDR-1'],
  level: 'MUST',
  untranslatable: 'the `anthropic-beta` and `anthropic-version` headers',
  protocol: 'vertex',
  requirement: 'The anthropic-version and anthropic-beta headers of a Vertex request reach the upstream as the client sent them: every beta value, unknown ones included, in order.',
  fix: 'Forward `anthropic-version` and `anthropic-beta` on the Vertex routes as on `/v1/messages`: every value, unknown ones included; no header allow-list that keeps only Google\'s headers.',
  async run(ctx) {
    for (const beta of CASES) {
      const x = await exchange(ctx, vertexBody(), vertexSend({ headers: [['anthropic-beta', beta]] }));
      if (!x.seen) return notForwarded(x);
      const want = beta.split(',').map((v) => v.trim());
      const got = listValues(x.seen, 'anthropic-beta');
      if (want.join(',') !== got.join(',')) {
        const missing = want.filter((v) => !got.includes(v));
        return fail(got.length === 0 ? 'anthropic-beta was removed' : missing.length ? `anthropic-beta lost ${missing.join(', ')}` : 'anthropic-beta values changed order or were added', { expected: want.join(','), actual: got.join(',') || '(absent)', evidence: exchangeEvidence(x) });
      }
      const version = headerValues(x.seen, 'anthropic-version');
      if (version.join(',') !== ANTHROPIC_VERSION) return fail(`anthropic-version arrived as ${version.length ? JSON.stringify(version) : '(absent)'}`, { expected: ANTHROPIC_VERSION, actual: version.join(',') || '(absent)', evidence: exchangeEvidence(x) });
    }
    return pass(`anthropic-version and ${CASES.length} anthropic-beta lists arrived unchanged`);
  },
});
