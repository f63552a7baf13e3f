import { defineCheck, fail, pass } from '../../src/check/check.js';
import { appsRun, spendDenials } from './common.js';

export default defineCheck({
  id: 'apps.tel.spend-denial',
  title: 'A spend denial emits attributable telemetry',
  requirements: ['APP-TEL-3'],
  level: 'SHOULD',
  profile: 'apps',
  requirement: 'A spend denial emits attributable telemetry (7): a span naming the user and the spend decision. Judged on every spend denial there was (JSON and streamed requests, each by its own user).',
  fix: 'Emit a span (or log record) for a spend denial that names the user and the decision.',
  run: appsRun(async (fx) => {
    const all = await spendDenials(fx);
    const denials = all.filter((d) => [402, 403, 429].includes(d.denied.status));
    if (!denials.length) return { ok: true, skip: true, message: `no spend denial happened (the requests over the cap got ${all.map((d) => d.denied.status).join(' and ')}; see apps.spend.deny)` };
    const names: string[] = [];
    for (const d of denials) {
      const user = `user-${d.how.user}`;
      const span = await fx.collector.waitFor(() => fx.collector.spans.find((s) => Object.values(s.attributes).includes(user) && (/spend|billing|limit/i.test(s.name) || Object.keys(s.attributes).some((k) => /spend\.(limit|window|decision)/.test(k)))), 5000);
      if (!span) return fail(`no span attributable to the spend denial of ${user} (${d.how.label}) reached the collector`);
      names.push(`${span.name} (${user})`);
    }
    return pass(`span ${names.join(', ')} names the user and the denial`);
  }),
});
