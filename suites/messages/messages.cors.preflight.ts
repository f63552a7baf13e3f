// CORS-1: whether a browser's preflight on /v1/messages and /v1/models is answered so a web
// client may go on: a 2xx allowing the origin, the method and every header it asked for. Sent
// as a browser sends it: no credential, Origin and the Access-Control-Request-* headers.
import { defineCheck, fail, pass, type CheckContext } from '../../src/check/check.js';
import type { GwResponse } from '../../src/client/gateway.js';
import { maskHeaders } from '../../src/core/mask.js';
import { MESSAGES_PATH } from '../shared/protocols.js';

const ORIGIN = 'http://localhost:5173';
/** What a browser client of each endpoint asks to send (the SDK's browser mode adds the dangerous-direct header). */
const PREFLIGHTS: Array<{ path: string; method: string; headers: string[] }> = [
  { path: MESSAGES_PATH, method: 'POST', headers: ['anthropic-dangerous-direct-browser-access', 'anthropic-version', 'content-type', 'x-api-key'] },
  { path: '/v1/models?limit=1000', method: 'GET', headers: ['anthropic-dangerous-direct-browser-access', 'anthropic-version', 'x-api-key'] },
];

/** The list values of an Access-Control-Allow-* header, lower-case. */
const listed = (res: GwResponse, name: string) => (res.header(name) ?? '').split(',').map((v) => v.trim().toLowerCase()).filter(Boolean);

/** What keeps a browser from going on after this preflight answer (empty: nothing). */
function blockers(res: GwResponse, p: (typeof PREFLIGHTS)[number]): string[] {
  const out: string[] = [];
  if (res.status < 200 || res.status >= 300) out.push(`status ${res.status}`);
  const origin = res.header('access-control-allow-origin');
  if (origin !== '*' && origin !== ORIGIN) out.push(origin ? `access-control-allow-origin: ${origin}` : 'no access-control-allow-origin');
  const methods = listed(res, 'access-control-allow-methods');
  if (!methods.includes('*') && !methods.includes(p.method.toLowerCase())) out.push(`${p.method} not in access-control-allow-methods (${methods.join(', ') || 'absent'})`);
  const allowed = listed(res, 'access-control-allow-headers');
  const missing = p.headers.filter((h) => !allowed.includes('*') && !allowed.includes(h));
  if (missing.length) out.push(`access-control-allow-headers lacks ${missing.join(', ')}`);
  return out;
}

async function preflight(ctx: CheckContext, p: (typeof PREFLIGHTS)[number]) {
  // A gateway may pass the preflight on: the upstream then answers as the real API does.
  const allow: Array<[string, string]> = [['access-control-allow-origin', ORIGIN], ['access-control-allow-methods', 'GET, POST, OPTIONS'], ['access-control-allow-headers', p.headers.join(', ')], ['access-control-max-age', '600']];
  const e = ctx.upstream.register({ kind: 'json', status: 204, headers: allow, body: '' });
  const headers: Array<[string, string]> = [['origin', ORIGIN], ['access-control-request-method', p.method], ['access-control-request-headers', p.headers.join(',')]];
  return ctx.gateway.send({ method: 'OPTIONS', path: p.path, auth: 'none', headers, caseToken: e.token, signal: ctx.signal });
}

export default defineCheck({
  id: 'messages.cors.preflight',
  title: 'A browser\'s CORS preflight on /v1/messages and /v1/models is answered so that web clients can connect',
  requirements: ['CORS-1'],
  level: 'INFO',
  protocol: 'messages',
  requirement:
    'OPTIONS /v1/messages (for POST) and OPTIONS /v1/models (for GET), with Origin and the headers a browser client asks for, answered 2xx with Access-Control-Allow-Origin, -Methods and -Headers that allow them (CORS-1).',
  fix: 'To serve browser clients, answer `OPTIONS` preflights on the API paths with a 2xx carrying `Access-Control-Allow-Origin` (the origin, or `*`), `Access-Control-Allow-Methods` with GET and POST, and `Access-Control-Allow-Headers` with every header the browser asked for (`x-api-key`, `anthropic-version`, `anthropic-dangerous-direct-browser-access`, `content-type`), or pass the preflight to the upstream unchanged. A router that serves only GET and POST answers 405 and no browser gets further.',
  async run(ctx) {
    const results = [];
    for (const p of PREFLIGHTS) {
      const res = await preflight(ctx, p);
      results.push({ what: `OPTIONS ${p.path.split('?')[0]}`, status: res.status, headers: maskHeaders(res.rawHeaders), blockers: blockers(res, p) });
    }
    const evidence = { origin: ORIGIN, preflights: results };
    const blocked = results.filter((r) => r.blockers.length);
    if (blocked.length)
      return fail(`a browser client could not connect: ${blocked.map((b) => `${b.what}: ${b.blockers.join('; ')}`).join(' | ')}`, {
        expected: '2xx allowing the origin, the method and every requested header',
        actual: blocked.map((b) => `${b.what}: ${b.blockers.join('; ')}`).join('\n'),
        evidence,
      });
    return pass(`both preflights were allowed: ${results.map((r) => `${r.what} ${r.status}`).join(', ')}`, evidence);
  },
});
