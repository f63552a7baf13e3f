import { defineCheck, fail, pass } from '../../src/check/check.js';
import { appsRun, bearer, brief, call, messages, session } from './common.js';

const OTLP = JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'gwc' }, spans: [{ traceId: '0123456789abcdef0123456789abcdef', spanId: '0123456789abcdef', name: 'gwc.client', kind: 1, startTimeUnixNano: '1', endTimeUnixNano: '2' }] }] }] });

export default defineCheck({
  id: 'apps.tel.collector-down',
  title: "With the collector refusing or failing, the client's telemetry posts get 2xx and inference works",
  requirements: ['APP-TEL-4'],
  level: 'MUST',
  profile: 'apps',
  exclusive: true,
  requirement: "The gateway's telemetry ingestion answers the client (2xx) even when the configured collector is down: telemetry never breaks inference.",
  fix: 'Answer the client\'s telemetry posts (2xx) even when the collector is down, and never let telemetry failures affect inference.',
  run: appsRun(async (fx) => {
    const token = await session(fx, 'alice');
    const seen: string[] = [];
    try {
      for (const mode of [{ kind: 'refuse' as const }, { kind: 'error' as const, status: 503 }]) {
        await fx.collector.setMode(mode);
        const post = await call(`${fx.gatewayUrl}/v1/traces`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: OTLP });
        const inf = await messages(fx, token, 'claude-sonnet-4-6');
        seen.push(`${mode.kind}: post ${post.status}, messages ${inf.status}`);
        if (post.status < 200 || post.status > 299) return fail(`with the collector ${mode.kind === 'refuse' ? 'refusing connections' : 'answering 503'}, the telemetry post did not get 2xx`, { expected: '2xx', actual: brief(post), evidence: { seen } });
        if (inf.status !== 200) return fail('with the collector down, inference failed', { actual: brief(inf), evidence: { seen } });
      }
    } finally {
      await fx.collector.setMode({ kind: 'up' });
    }
    return pass(seen.join('; '));
  }),
});
