import { defineCheck, fail, pass } from '../../src/check/check.js';
import { appsRun, bearer, brief, call, errorType, isJson, messages, receivedBy, session } from './common.js';

export default defineCheck({
  id: 'apps.policy.models',
  title: "A model outside the caller's group policy is refused with JSON 400 and left out of its model list",
  requirements: ['APP-POLICY-1'],
  level: 'MUST',
  area: 'apps',
  profile: 'apps',
  requirement: "A model outside the caller's policy is refused with a JSON 400 invalid_request_error, and the model list of that caller shows only the models its policy allows. The harness's policy gives eng claude-sonnet-4-6 and claude-haiku-4-5.",
  run: appsRun(async (fx) => {
    const token = await session(fx, 'alice');
    const denied = await messages(fx, token, 'claude-opus-4-7');
    if (denied.status !== 400 || !isJson(denied) || errorType(denied) !== 'invalid_request_error') return fail("alice's request for a model outside the eng policy was not refused with JSON 400 invalid_request_error", { expected: '400 invalid_request_error', actual: brief(denied) });
    if (receivedBy(fx, denied.tag).length) return fail('the refused request reached an upstream', { actual: JSON.stringify(receivedBy(fx, denied.tag)) });
    const list = await call(`${fx.gatewayUrl}/v1/models`, { headers: bearer(token) });
    const ids = ((list.json as { data?: { id?: string }[] } | undefined)?.data ?? []).map((m) => String(m.id));
    if (ids.some((id) => id.startsWith('claude-opus-4-7'))) return fail("alice's model list shows a model her policy does not allow", { actual: ids.join(', ') });
    if (!ids.some((id) => id.startsWith('claude-sonnet-4-6'))) return fail("alice's model list lacks a model her policy allows", { actual: ids.join(', ') });
    return pass(`refused with 400 invalid_request_error; model list ${ids.join(', ')}`);
  }),
});
