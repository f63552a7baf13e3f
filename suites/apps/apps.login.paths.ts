import { defineCheck, fail, pass } from '../../src/check/check.js';
import { appsRun, brief, call, isJson, metadata } from './common.js';
import { deviceUrls, metadataUrls, offPublic } from './urls.js';
import { excerpt } from '../shared/evidence.js';

export default defineCheck({
  id: 'apps.login.paths',
  title: 'Authorization-server metadata, device login page, callback and health paths exist, answer, and are on the public URL',
  requirements: ['APP-LOGIN-1'],
  level: 'MUST',
  profile: 'apps',
  requirement:
    'Login, callback and health paths exist and answer; paths come from the metadata document and the device authorization answer, and every URL these hand out (issuer, endpoints, verification_uri, verification_uri_complete) is on server.public_url (scheme, host, port); both verification links answer 200.',
  fix: 'Serve the authorization-server metadata, the device verification page, `/oauth/callback` and a health path, and advertise them in the metadata document, every URL (issuer, endpoints, verification links) on `server.public_url`.',
  run: appsRun(async (fx) => {
    const meta = await call(`${fx.gatewayUrl}/.well-known/oauth-authorization-server`);
    if (meta.status !== 200 || !isJson(meta)) return fail('the OAuth authorization-server metadata is not served as JSON', { expected: '200 JSON', actual: brief(meta) });
    const m = await metadata(fx);
    if (!m.device_authorization_endpoint || !m.token_endpoint) return fail('the metadata names no device_authorization_endpoint or token_endpoint', { actual: excerpt(meta.text, 300) });
    const da = await call(m.device_authorization_endpoint, { method: 'POST', form: { surface: 'claude_code' } });
    const d = da.json as { verification_uri?: string; verification_uri_complete?: string } | undefined;
    if (da.status !== 200 || !d?.verification_uri) return fail('device authorization gave no verification_uri', { actual: brief(da) });
    const off = offPublic([...metadataUrls(meta.json), ...deviceUrls(d)], fx.publicUrl);
    if (off.length) return fail(`URLs handed out are not on the public URL, so a user's device may not reach them: ${off.join('; ')}`, { expected: `every URL on ${fx.publicUrl} (scheme, host and port)`, actual: off.join('; ') });
    const login = await call(d.verification_uri);
    const complete = d.verification_uri_complete ? await call(d.verification_uri_complete) : undefined;
    const callback = await call(`${fx.gatewayUrl}/oauth/callback`);
    const health = await call(`${fx.gatewayUrl}/healthz`);
    const evidence = { login: login.status, complete: complete?.status ?? 'no verification_uri_complete', callback: callback.status, health: brief(health) };
    if (login.status !== 200) return fail('the verification (login) page does not answer 200', { actual: brief(login), evidence });
    if (complete && complete.status !== 200) return fail('the link the user opens (verification_uri_complete) does not answer 200', { actual: brief(complete), evidence });
    if (callback.status === 404 || callback.status >= 500) return fail('the IdP callback path does not answer', { actual: brief(callback), evidence });
    if (health.status < 200 || health.status > 299) return fail('the health path /healthz does not answer 2xx', { expected: '2xx', actual: brief(health), evidence });
    return pass(`metadata, login page, completed link, callback and health all answer, every URL on ${fx.publicUrl}`, evidence);
  }),
});
