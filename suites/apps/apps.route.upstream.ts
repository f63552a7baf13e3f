import { defineCheck, fail, pass } from '../../src/check/check.js';
import { appsRun, brief, messages, receivedBy, session } from './common.js';

export default defineCheck({
  id: 'apps.route.upstream',
  title: 'Requests go to the upstream their group or model rule names, others to the default upstream',
  requirements: ['APP-ROUTE-1'],
  level: 'MUST',
  profile: 'apps',
  requirement: 'Requests of a group (and listed models) go to the upstream its rule names; others go to the default upstream. The harness configures eng-up for eng, haiku-up for claude-haiku-4-5, default-up for the rest.',
  fix: 'Route by the configured rules (`upstreams[].groups`, `upstreams[].models`), the rest to the default upstream.',
  run: appsRun(async (fx) => {
    const alice = await session(fx, 'alice');
    const bob = await session(fx, 'bob');
    const cases: [string, string, string, string][] = [
      ['alice', alice, 'claude-sonnet-4-6', 'eng-up'],
      ['bob', bob, 'claude-haiku-4-5', 'haiku-up'],
      ['bob', bob, 'claude-sonnet-4-6', 'default-up'],
    ];
    const seen: string[] = [];
    for (const [who, token, model, want] of cases) {
      const r = await messages(fx, token, model);
      const got = receivedBy(fx, r.tag).map((x) => x.upstream);
      seen.push(`${who} ${model} -> ${got.join(',') || 'none'}`);
      if (r.status !== 200) return fail(`${who}'s request for ${model} was not served`, { actual: brief(r), evidence: { seen } });
      if (got.length !== 1 || got[0] !== want) return fail(`${who}'s request for ${model} went to ${got.join(',') || 'no upstream'}`, { expected: want, actual: got.join(',') || 'none', evidence: { seen } });
    }
    return pass(seen.join('; '));
  }),
});
