import { defineCheck, fail, pass } from '../../src/check/check.js';
import { appsRun, bearer, brief, call, isJson, session } from './common.js';

export default defineCheck({
  id: 'apps.disc.models',
  title: 'Model discovery answers JSON with a session token and JSON 401 without one, no IdP redirect, within 3 s',
  requirements: ['APP-DISC-1'],
  level: 'MUST',
  area: 'apps',
  profile: 'apps',
  requirement: 'Model discovery is not put behind OIDC login.',
  run: appsRun(async (fx) => {
    const token = await session(fx, 'alice');
    const withToken = await call(`${fx.gatewayUrl}/v1/models`, { headers: bearer(token) });
    const none = await call(`${fx.gatewayUrl}/v1/models`, { headers: { 'anthropic-version': '2023-06-01' } });
    const evidence = { withToken: brief(withToken), withoutToken: brief(none), ms: [Math.round(withToken.ms), Math.round(none.ms)] };
    const data = (withToken.json as { data?: unknown } | undefined)?.data;
    if (withToken.status !== 200 || !isJson(withToken) || !Array.isArray(data)) return fail('with a valid session token, /v1/models did not answer a JSON model list', { expected: '200 JSON {data: [...]}', actual: brief(withToken), evidence });
    if (none.status >= 300 && none.status < 400) return fail('without a token, /v1/models redirected (discovery behind the IdP login)', { expected: 'JSON 401', actual: `${none.status} location ${none.headers.get('location') ?? '-'}`, evidence });
    if (none.status !== 401 || !isJson(none)) return fail('without a token, /v1/models did not answer JSON 401', { expected: 'JSON 401', actual: brief(none), evidence });
    if (withToken.ms > 3000 || none.ms > 3000) return fail('model discovery took longer than 3 s', { expected: '≤ 3000 ms', actual: `${Math.round(Math.max(withToken.ms, none.ms))} ms`, evidence });
    return pass(`JSON list of ${data.length} models with a token, JSON 401 without, no redirect`, evidence);
  }),
});
