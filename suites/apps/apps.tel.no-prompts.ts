import { defineCheck, fail, pass } from '../../src/check/check.js';
import { appsRun, messages, session, spansOf } from './common.js';

export default defineCheck({
  id: 'apps.tel.no-prompts',
  title: 'No prompt or completion text in telemetry, on success, stream and error paths',
  requirements: ['APP-TEL-2'],
  level: 'MUST',
  area: 'apps',
  profile: 'apps',
  requirement: 'No raw prompt or completion text in telemetry by default. A canary in the prompt (echoed in the completion) must appear in no span, log or metric the collector receives.',
  run: appsRun(async (fx) => {
    const token = await session(fx, 'alice');
    const canary = `GWC-CANARY-${Math.random().toString(36).slice(2, 10)}`;
    const sent = [
      await messages(fx, token, 'claude-sonnet-4-6', { prompt: canary }),
      await messages(fx, token, 'claude-sonnet-4-6', { prompt: canary, stream: true }),
      await messages(fx, token, 'claude-sonnet-4-6', { prompt: `${canary} gwc-status=500` }),
    ];
    for (const r of sent) await spansOf(fx, r.headers.get('request-id'));
    if (fx.collector.sawText(canary)) return fail('the prompt canary appears in telemetry the collector received', { expected: 'no prompt or completion text', actual: 'canary found (masked)' });
    return pass('the canary of three requests (JSON, stream, upstream error) appears in no telemetry');
  }),
});
