import { defineCheck, fail, pass } from '../../src/check/check.js';
import { appsRun, brief, messages, session, spansOf } from './common.js';
import { plural } from '../../src/core/words.js';

export default defineCheck({
  id: 'apps.tel.traces',
  title: "The gateway's traces reach the collector with request, latency, error, route, spend and policy data",
  requirements: ['APP-TEL-1'],
  level: 'MUST',
  profile: 'apps',
  requirement: 'Traces reach the configured OTLP endpoint with request, latency, error, route, spend and policy data. A span belongs to a request when an attribute equals the request-id the gateway answered.',
  fix: 'Export spans of the gateway\'s own requests to the OTLP endpoint, with request id, latency, route, spend, policy and error attributes.',
  run: appsRun(async (fx) => {
    const token = await session(fx, 'alice');
    const ok = await messages(fx, token, 'claude-sonnet-4-6');
    const bad = await messages(fx, token, 'claude-sonnet-4-6', { prompt: 'gwc-status=500' });
    const okSpans = await spansOf(fx, ok.headers.get('request-id'));
    const badSpans = await spansOf(fx, bad.headers.get('request-id'));
    if (!okSpans.length) return fail('no span of the served request reached the collector', { actual: `request-id ${ok.headers.get('request-id') ?? 'none'}, ${plural(fx.collector.spans.length, 'span')} in all`, evidence: { ok: brief(ok) } });
    const keys = okSpans.flatMap((s) => Object.keys(s.attributes)).join(' ');
    const values = okSpans.flatMap((s) => Object.values(s.attributes).map(String));
    const has = { request: /route|url|path|method/.test(keys), latency: /latency|duration/.test(keys), route: values.includes('eng-up'), spend: /spend|cost|usage/.test(keys), policy: /policy/.test(keys) };
    const missing = Object.entries(has).filter(([, v]) => !v).map(([k]) => k);
    if (missing.length) return fail(`the request's spans lack ${missing.join(', ')} data`, { actual: keys });
    const errorShown = badSpans.some((s) => Object.keys(s.attributes).some((k) => /error/.test(k)) || Object.entries(s.attributes).some(([k, v]) => /status/.test(k) && Number(v) >= 500));
    if (!errorShown) return fail('the failed request has no span with error data', { actual: bad.headers.get('request-id') ?? 'no request-id', evidence: { bad: brief(bad) } });
    return pass(`spans with request, latency, route (eng-up), spend, policy and error data`);
  }),
});
