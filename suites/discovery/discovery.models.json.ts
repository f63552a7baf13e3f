import { defineCheck, fail, pass } from '../../src/check/check.js';
import { ALL, describe, discover, discoveryEvidence, parseModelList, uncorrelated, UNCORRELATED } from './common.js';

export default defineCheck({
  id: 'discovery.models.json',
  title: 'GET /v1/models?limit=1000 with a bearer token, an x-api-key, no credential and a bad one answers JSON',
  requirements: ['DISC-1'],
  level: 'MUST',
  protocol: 'messages',
  requirement:
    'Model discovery answers JSON: a model list (a `data` array of models with string ids), a JSON 401/403 when the credential is missing, bad or without access, or a JSON 404 (discovery not offered: Claude Code falls back to its built-in list; a failure under --strict, the letter of the interface); never a page, a redirect or an error of another status (DISC-1).',
  fix: 'Serve `GET /v1/models` as JSON: the upstream\'s list, or a JSON 401/403 for a missing or bad credential. No HTML pages, no other status.',
  async run(ctx) {
    const strict = ctx.settings.strict === true;
    const calls = await Promise.all(ALL.map((cred) => discover(ctx, cred)));
    const bad: string[] = [];
    const skipped: string[] = [];
    const notOffered: string[] = [];
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
      if (s.json && s.status === 404 && !strict) {
        notOffered.push(d.cred);
        continue;
      }
      bad.push(`${d.cred}: ${list && !list.ok ? `a 2xx JSON body that is not a model list (${list.why})` : describe(d)}`);
    }
    const evidence = { calls: calls.map((d) => discoveryEvidence(d)) };
    if (bad.length)
      return fail(`discovery did not answer a JSON model list or a JSON 401/403 (${bad.length} of ${calls.length} credential styles): ${bad[0]}`, {
        expected: `a JSON model list, or a JSON 401/403 for a missing or bad credential${strict ? ' (--strict: a JSON 404 is not in the interface)' : ', or a JSON 404 (discovery not offered)'}`,
        actual: bad.join('\n'),
        evidence,
      });
    if (skipped.length === calls.length) return { ok: true, skip: true, message: UNCORRELATED, evidence };
    const judged = calls.length - skipped.length;
    if (notOffered.length === judged)
      return { ok: true, info: true, message: `discovery is not offered: a JSON 404 for every credential style, so Claude Code falls back to its built-in model list (reported, not a failure; --strict, the letter of the interface, fails it)`, evidence };
    const summary = calls.filter((d) => !skipped.includes(d.cred)).map((d) => `${d.cred} ${d.res!.status}`);
    const offered = notOffered.length ? `; discovery not offered (JSON 404) to ${notOffered.join(', ')}` : '';
    return pass(`JSON for every credential style (${summary.join(', ')})${offered}${skipped.length ? `; not correlated: ${skipped.join(', ')}` : ''}`, evidence);
  },
});
