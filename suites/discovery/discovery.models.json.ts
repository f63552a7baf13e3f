import { defineCheck, fail, pass } from '../../src/check/check.js';
import { ALL, describe, discover, discoveryEvidence, parseModelList, uncorrelated, UNCORRELATED } from './common.js';

export default defineCheck({
  id: 'discovery.models.json',
  title: 'GET /v1/models?limit=1000 with a bearer token, an x-api-key, no credential and a bad one answers JSON',
  requirements: ['DISC-1'],
  level: 'MUST',
  area: 'discovery',
  profile: 'default',
  protocol: 'messages',
  requirement:
    'Model discovery answers JSON: a model list (a `data` array of models with string ids), or a JSON 401/403 when the credential is missing, bad or without access; never a page, a redirect or an error of another status (DISC-1).',
  async run(ctx) {
    const calls = await Promise.all(ALL.map((cred) => discover(ctx, cred)));
    const bad: string[] = [];
    const skipped: string[] = [];
    for (const d of calls) {
      if (!d.res || !d.shape) {
        bad.push(`${d.cred}: ${d.failure}`);
        continue;
      }
      if (uncorrelated(d)) {
        skipped.push(d.cred);
        continue;
      }
      const s = d.shape;
      const list = s.json && s.status >= 200 && s.status < 300 ? parseModelList(s.parsed) : null;
      const denied = s.json && (s.status === 401 || s.status === 403);
      if (list?.ok || denied) continue;
      bad.push(`${d.cred}: ${list && !list.ok ? `a 2xx JSON body that is not a model list (${list.why})` : describe(d)}`);
    }
    const evidence = { calls: calls.map((d) => discoveryEvidence(d)) };
    if (bad.length)
      return fail(`discovery did not answer a JSON model list or a JSON 401/403 (${bad.length} of ${calls.length} credential styles): ${bad[0]}`, {
        expected: 'a JSON model list, or a JSON 401/403 for a missing or bad credential',
        actual: bad.join('\n'),
        evidence,
      });
    if (skipped.length === calls.length) return { ok: true, skip: true, message: UNCORRELATED, evidence };
    const summary = calls.filter((d) => !skipped.includes(d.cred)).map((d) => `${d.cred} ${d.res!.status}`);
    return pass(`JSON for every credential style (${summary.join(', ')})${skipped.length ? `; not correlated: ${skipped.join(', ')}` : ''}`, evidence);
  },
});
