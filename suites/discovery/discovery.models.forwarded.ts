import { defineCheck, fail, pass } from '../../src/check/check.js';
import { ANTHROPIC_VERSION } from '../../src/client/gateway.js';
import { headerValues, queryOf } from '../../src/upstream/record.js';
import { discover, discoveryEvidence, uncorrelated, uncorrelatedSkip } from './common.js';

export default defineCheck({
  id: 'discovery.models.forwarded',
  title: 'GET /v1/models?limit=1000 reaches the upstream with limit=1000 and anthropic-version',
  requirements: ['DISC-5'],
  level: 'SHOULD',
  protocol: 'messages',
  requirement:
    'When the gateway forwards discovery, the upstream receives the query limit=1000 (without it the list may be cut to the default page) and the anthropic-version header as sent (DISC-5).',
  fix: 'Forward the query (`limit=1000`) and the `anthropic-version` header of discovery; without `limit` the list may be cut to the default page.',
  async run(ctx) {
    const d = await discover(ctx, 'bearer');
    const evidence = discoveryEvidence(d);
    if (uncorrelated(d)) return uncorrelatedSkip(d);
    const seen = d.expectation.hits[0];
    if (!seen) {
      if (!d.res) return fail(`discovery got no answer: ${d.failure}`, { expected: 'an answer', actual: d.failure, evidence });
      return { ok: true, skip: true, message: `the gateway answered discovery itself (${d.res.status}) without asking the upstream: nothing forwarded to check`, evidence };
    }
    const limit = new URLSearchParams(queryOf(seen.url).slice(1)).getAll('limit');
    const version = headerValues(seen, 'anthropic-version');
    const problems: string[] = [];
    if (limit.length !== 1 || limit[0] !== '1000') problems.push(`limit arrived as ${limit.length ? limit.join(',') : '(absent)'} (url ${seen.url})`);
    if (version.length !== 1 || version[0] !== ANTHROPIC_VERSION) problems.push(`anthropic-version arrived as ${version.length ? version.join(', ') : '(absent)'}`);
    if (problems.length)
      return fail(`discovery was forwarded without what the client sent: ${problems.join('; ')}`, { expected: `GET /v1/models?limit=1000 with anthropic-version: ${ANTHROPIC_VERSION}`, actual: `${seen.method} ${seen.url}; anthropic-version: ${version.join(', ') || '(absent)'}`, evidence });
    return pass(`forwarded as ${seen.method} ${seen.url} with anthropic-version ${version[0]}`, evidence);
  },
});
