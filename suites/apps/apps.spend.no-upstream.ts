import { defineCheck, fail, pass } from '../../src/check/check.js';
import { appsRun, brief, spendDenials } from './common.js';

export default defineCheck({
  id: 'apps.spend.no-upstream',
  title: 'A request denied for spend never reaches an upstream, and no other model is substituted (JSON and streamed requests)',
  requirements: ['APP-SPEND-2'],
  level: 'MUST',
  profile: 'apps',
  requirement: 'A denied request never reaches an upstream; no cheaper or different model is substituted (7). Judged on the spend denials of JSON and of streamed requests.',
  fix: 'A request denied for spend must not reach any upstream, and must not be served by another model instead.',
  run: appsRun(async (fx) => {
    for (const d of await spendDenials(fx)) {
      const evidence = { requests: d.how.label, denied: brief(d.denied), reached: d.reached };
      const other = d.reached.filter((x) => !x.model.startsWith('claude-sonnet-4-6'));
      if (other.length) return fail(`with ${d.how.label}: over the cap, the request was served by another model`, { expected: 'a refusal, no upstream request', actual: other.map((x) => `${x.upstream}: ${x.model}`).join(', '), evidence });
      if (d.reached.length) return fail(`with ${d.how.label}: the request over the cap reached an upstream`, { expected: 'no upstream request', actual: d.reached.map((x) => x.upstream).join(', '), evidence });
    }
    return pass('the requests over the cap (JSON and streamed) reached no upstream');
  }),
});
