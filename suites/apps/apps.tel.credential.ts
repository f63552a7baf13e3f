// APP-TEL-5: a telemetry endpoint the gateway hands clients comes with the means to reach it.
// Claude Code connected to the gateway exports to the gateway's own /v1/{signal} with its session
// token, unless the gateway's managed settings name an OTLP endpoint of another host; then it
// exports there with the headers of the same settings and never sends the session token to it.
// So an endpoint that refuses exports without a credential must come with headers that carry one.
import { defineCheck, fail, pass, type Verdict } from '../../src/check/check.js';
import { appsRun, bearer, brief, call, session, type AppsFixture } from './common.js';

/** An empty trace export in OTLP/JSON: what any collector takes from a client with the right to send. */
const EMPTY_EXPORT = JSON.stringify({ resourceSpans: [] });

/** Where the client sends traces, from managed settings' `env`: the traces endpoint as given, else the general endpoint + /v1/traces. */
export function tracesEndpoint(env: Record<string, unknown>): string | undefined {
  const own = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (typeof own === 'string' && own) return own;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return typeof base === 'string' && base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

/** The headers the client adds to trace exports: `k=v` pairs, comma-separated, values percent-decoded (the traces variable wins). */
export function otlpHeaders(env: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ['OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS']) {
    const v = env[key];
    if (typeof v !== 'string') continue;
    for (const pair of v.split(',')) {
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      const value = pair.slice(at + 1).trim();
      let decoded = value;
      try {
        decoded = decodeURIComponent(value);
      } catch {
        // Not percent-encoded: the value as written.
      }
      out[pair.slice(0, at).trim().toLowerCase()] = decoded;
    }
  }
  return out;
}

const isLoopback = (u: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);

const exportTo = (url: string, headers: Record<string, string> = {}) => call(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: EMPTY_EXPORT });

/** No endpoint of another host: the client exports to the gateway itself with its session token, which the gateway must take. */
async function ownEndpoint(fx: AppsFixture, token: string): Promise<Verdict> {
  const relay = await exportTo(`${fx.gatewayUrl}/v1/traces`, bearer(token));
  if (relay.status === 401 || relay.status === 403)
    return fail("the gateway's own telemetry endpoint refuses the session token the client sends it", { expected: 'POST /v1/traces with the session token taken (2xx)', actual: brief(relay) });
  return pass(`the managed settings name no telemetry endpoint of another host; the gateway's own /v1/traces takes the session token (${relay.status})`);
}

export default defineCheck({
  id: 'apps.tel.credential',
  title: 'A telemetry endpoint the managed settings hand clients comes with the headers that carry its credential',
  requirements: ['APP-TEL-5'],
  level: 'MUST',
  profile: 'apps',
  requirement:
    "When alice's managed settings name an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT in `env`) that refuses an export without a credential, the same settings carry headers (OTEL_EXPORTER_OTLP_HEADERS or its traces variant) with which an export is taken; with no such endpoint, the gateway's own /v1/traces takes the session token.",
  fix: 'When the managed settings name an OTLP endpoint that needs a credential, serve the headers that carry it in the same settings (`OTEL_EXPORTER_OTLP_HEADERS`, from a secret of the gateway\'s environment, never from the YAML in clear); a client connected to the gateway uses no header of its own for that endpoint and never sends its session token there.',
  run: appsRun(async (fx) => {
    const token = await session(fx, 'alice');
    const got = await call(`${fx.gatewayUrl}/managed/settings`, { headers: bearer(token) });
    if (got.status === 404) return { ok: true, skip: true, message: 'alice has no managed settings: no telemetry endpoint is handed out', evidence: { settings: brief(got) } };
    const settings = (got.json as { settings?: { env?: unknown } } | undefined)?.settings;
    if (got.status !== 200 || !settings) return fail("alice's managed settings were not served", { expected: '200 {settings}', actual: brief(got) });
    const env = settings.env && typeof settings.env === 'object' ? (settings.env as Record<string, unknown>) : {};
    const endpoint = tracesEndpoint(env);
    if (!endpoint) return ownEndpoint(fx, token);
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      return fail(`the managed settings name a telemetry endpoint that is not a URL: ${endpoint}`);
    }
    if (!isLoopback(url)) return { ok: true, skip: true, message: `the managed settings name ${url.origin}, off loopback: the harness does not leave loopback to try it` };
    const bare = await exportTo(endpoint);
    if (bare.status !== 401 && bare.status !== 403) return pass(`the telemetry endpoint the managed settings name (${url.pathname}) takes an export without a credential (${bare.status})`);
    const headers = otlpHeaders(env);
    const names = Object.keys(headers);
    const evidence = { endpoint, withoutCredential: brief(bare), headerNames: names };
    if (!names.length)
      return fail(`the managed settings hand clients the telemetry endpoint ${url.pathname}, which answers ${bare.status} without a credential, and no headers to send one`, {
        expected: 'OTEL_EXPORTER_OTLP_HEADERS (or OTEL_EXPORTER_OTLP_TRACES_HEADERS) in the same settings, carrying the credential',
        actual: `env keys: ${Object.keys(env).join(', ') || 'none'}`,
        evidence,
      });
    const sent = await exportTo(endpoint, headers);
    if (sent.status >= 200 && sent.status < 300) return pass(`the telemetry endpoint the managed settings name (${url.pathname}) answers ${bare.status} without a credential and ${sent.status} with the headers they hand out (${names.join(', ')})`, evidence);
    return fail(`the headers the managed settings hand out (${names.join(', ')}) do not get an export into ${url.pathname}: ${sent.status}`, { expected: 'a 2xx with the headers the settings carry', actual: brief(sent), evidence });
  }),
});
