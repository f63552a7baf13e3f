import { defineCheck, fail, pass } from '../../src/check/check.js';
import { appsRun, bearer, brief, call, errorType, isJson, messages, receivedBy, session, type AppsFixture } from './common.js';

const modelIds = async (fx: AppsFixture, token: string) => ((await call(`${fx.gatewayUrl}/v1/models`, { headers: bearer(token) })).json as { data?: { id?: string }[] } | undefined)?.data?.map((m) => String(m.id)) ?? [];

export default defineCheck({
  id: 'apps.policy.models',
  title: "A model outside the caller's group policy is refused with JSON 400 and left out of its model list; each caller gets the list of its own policy",
  requirements: ['APP-POLICY-1'],
  level: 'MUST',
  profile: 'apps',
  requirement:
    "A model outside the caller's policy is refused with a JSON 400 invalid_request_error, and the model list of each caller shows only the models its policy allows. The harness's policy gives eng claude-sonnet-4-6 and claude-haiku-4-5, and contractors no model limit: alice (eng) and bob (contractors) each ask for the list, alice twice (before and after bob), so one user's list served to another shows.",
  fix: 'Enforce the group policy\'s models: a model outside it gets a JSON 400 `invalid_request_error` and is left out of that caller\'s model list; build (or cache) the model list per caller\'s policy, never one list for everyone.',
  run: appsRun(async (fx) => {
    const token = await session(fx, 'alice');
    const denied = await messages(fx, token, 'claude-opus-4-7');
    if (denied.status !== 400 || !isJson(denied) || errorType(denied) !== 'invalid_request_error') return fail("alice's request for a model outside the eng policy was not refused with JSON 400 invalid_request_error", { expected: '400 invalid_request_error', actual: brief(denied) });
    if (receivedBy(fx, denied.tag).length) return fail('the refused request reached an upstream', { actual: JSON.stringify(receivedBy(fx, denied.tag)) });
    const bobToken = await session(fx, 'bob');
    const lists = { aliceBefore: await modelIds(fx, token), bob: await modelIds(fx, bobToken), aliceAfter: await modelIds(fx, token) };
    const evidence = Object.fromEntries(Object.entries(lists).map(([k, v]) => [k, v.join(', ')]));
    for (const ids of [lists.aliceBefore, lists.aliceAfter]) {
      if (ids.some((id) => id.startsWith('claude-opus-4-7'))) return fail("alice's model list shows a model her policy does not allow", { actual: ids.join(', '), evidence });
      if (!ids.some((id) => id.startsWith('claude-sonnet-4-6'))) return fail("alice's model list lacks a model her policy allows", { actual: ids.join(', '), evidence });
    }
    if (!lists.bob.some((id) => id.startsWith('claude-opus-4-7')))
      return fail(`bob's model list lacks claude-opus-4-7, which his policy (no model limit) allows${lists.bob.join(',') === lists.aliceBefore.join(',') ? ": he was given alice's list" : ''}`, { expected: 'a list with claude-opus-4-7', actual: lists.bob.join(', '), evidence });
    return pass(`refused with 400 invalid_request_error; alice's model list ${lists.aliceAfter.join(', ')}, bob's ${lists.bob.join(', ')}`, evidence);
  }),
});
