import { defineCheck, fail, pass } from '../../src/check/check.js';
import { appsRun, brief, call, isJson, metadata } from './common.js';

export default defineCheck({
  id: 'apps.login.paths',
  title: 'Authorization-server metadata, device login page, callback and health paths exist and answer',
  requirements: ['APP-LOGIN-1'],
  level: 'MUST',
  area: 'apps',
  profile: 'apps',
  requirement: 'Login, callback and health paths exist and answer; paths come from the metadata document and the device authorization answer.',
  run: appsRun(async (fx) => {
    const meta = await call(`${fx.gatewayUrl}/.well-known/oauth-authorization-server`);
    if (meta.status !== 200 || !isJson(meta)) return fail('the OAuth authorization-server metadata is not served as JSON', { expected: '200 JSON', actual: brief(meta) });
    const m = await metadata(fx);
    if (!m.device_authorization_endpoint || !m.token_endpoint) return fail('the metadata names no device_authorization_endpoint or token_endpoint', { actual: meta.text.slice(0, 300) });
    const da = await call(m.device_authorization_endpoint, { method: 'POST', form: { surface: 'claude_code' } });
    const uri = (da.json as { verification_uri?: string } | undefined)?.verification_uri;
    if (da.status !== 200 || !uri) return fail('device authorization gave no verification_uri', { actual: brief(da) });
    const login = await call(uri);
    const callback = await call(`${fx.gatewayUrl}/oauth/callback`);
    const health = await call(`${fx.gatewayUrl}/healthz`);
    const evidence = { login: login.status, callback: callback.status, health: brief(health) };
    if (login.status !== 200) return fail('the verification (login) page does not answer 200', { actual: brief(login), evidence });
    if (callback.status === 404 || callback.status >= 500) return fail('the IdP callback path does not answer', { actual: brief(callback), evidence });
    if (health.status < 200 || health.status > 299) return fail('the health path /healthz does not answer 2xx', { expected: '2xx', actual: brief(health), evidence });
    return pass('metadata, login page, callback and health all answer', evidence);
  }),
});
