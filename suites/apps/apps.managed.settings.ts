import { defineCheck, fail, pass } from '../../src/check/check.js';
import { appsRun, bearer, brief, call, session } from './common.js';

export default defineCheck({
  id: 'apps.managed.settings',
  title: 'Managed settings per group with an ETag (304 on a match); no policy (404) told apart from an empty one (200 {})',
  requirements: ['APP-MANAGED-1'],
  level: 'SHOULD',
  profile: 'apps',
  requirement: 'Managed settings are delivered per group with a validator (ETag); "no policy" and "an empty policy" are told apart (5 rule 6). eng has a policy, contractors an empty one, ops none.',
  fix: 'Serve managed settings per group with an ETag (304 on `If-None-Match`); answer 404 for no policy and 200 `{}` for an empty one.',
  run: appsRun(async (fx) => {
    const get = async (user: string, extra: Record<string, string> = {}) => call(`${fx.gatewayUrl}/managed/settings`, { headers: { ...bearer(await session(fx, user)), ...extra } });
    const alice = await get('alice');
    const etag = alice.headers.get('etag');
    const settings = (alice.json as { settings?: Record<string, unknown> } | undefined)?.settings;
    if (alice.status !== 200 || !settings || !Object.keys(settings).length) return fail("alice's group policy was not served", { actual: brief(alice) });
    if (!etag) return fail('managed settings come without an ETag');
    const again = await get('alice', { 'if-none-match': etag });
    if (again.status !== 304) return fail('If-None-Match with the current ETag did not get 304', { actual: brief(again) });
    const bob = await get('bob');
    const bobSettings = (bob.json as { settings?: Record<string, unknown> } | undefined)?.settings;
    if (bob.status !== 200 || !bobSettings || Object.keys(bobSettings).length) return fail("bob's empty policy was not served as 200 with empty settings", { actual: brief(bob) });
    const olga = await get('olga');
    if (olga.status !== 404) return fail('a user with no matching policy did not get 404 (no policy and an empty policy are not told apart)', { expected: '404', actual: brief(olga) });
    return pass('eng 200 with ETag and 304; contractors 200 {}; ops 404');
  }),
});
