import { defineCheck, fail, pass } from '../../src/check/check.js';
import { appsRun, brief, spendDenial } from './common.js';

export default defineCheck({
  id: 'apps.spend.no-upstream',
  title: 'A request denied for spend never reaches an upstream, and no other model is substituted',
  requirements: ['APP-SPEND-2'],
  level: 'MUST',
  area: 'apps',
  profile: 'apps',
  requirement: 'A denied request never reaches an upstream; no cheaper or different model is substituted (7).',
  run: appsRun(async (fx) => {
    const d = await spendDenial(fx);
    const evidence = { denied: brief(d.denied), reached: d.reached };
    const other = d.reached.filter((x) => !x.model.startsWith('claude-sonnet-4-6'));
    if (other.length) return fail('over the cap, the request was served by another model', { expected: 'a refusal, no upstream request', actual: other.map((x) => `${x.upstream}: ${x.model}`).join(', '), evidence });
    if (d.reached.length) return fail('the request over the cap reached an upstream', { expected: 'no upstream request', actual: d.reached.map((x) => x.upstream).join(', '), evidence });
    return pass('the request over the cap reached no upstream', evidence);
  }),
});
