import { defineCheck, fail, pass } from '../../src/check/check.js';
import { appsRun, spendDenial } from './common.js';

export default defineCheck({
  id: 'apps.tel.spend-denial',
  title: 'A spend denial emits attributable telemetry',
  requirements: ['APP-TEL-3'],
  level: 'SHOULD',
  area: 'apps',
  profile: 'apps',
  requirement: 'A spend denial emits attributable telemetry (7): a span naming the user and the spend decision.',
  run: appsRun(async (fx) => {
    const d = await spendDenial(fx);
    if (![402, 403, 429].includes(d.denied.status)) return { ok: true, skip: true, message: `no spend denial happened (the request over the cap got ${d.denied.status}; see apps.spend.deny)` };
    const span = await fx.collector.waitFor(() => fx.collector.spans.find((s) => Object.values(s.attributes).includes('user-dave') && (/spend|billing|limit/i.test(s.name) || Object.keys(s.attributes).some((k) => /spend\.(limit|window|decision)/.test(k)))), 5000);
    if (!span) return fail('no span attributable to the spend denial of user-dave reached the collector');
    return pass(`span ${span.name} names the user and the denial`);
  }),
});
