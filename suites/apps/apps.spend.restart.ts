import { defineCheck, fail, pass } from '../../src/check/check.js';
import { appsRun, brief, messages, spendDenials, utcDay } from './common.js';

const refused = (status: number) => [402, 403, 429].includes(status);

export default defineCheck({
  id: 'apps.spend.restart',
  title: 'The spent amount survives a gateway restart',
  requirements: ['APP-SPEND-3'],
  level: 'SHOULD',
  profile: 'apps',
  exclusive: true,
  requirement: 'Spend state survives a gateway restart (relational database, 2.7). Judged on every spend denial there was (JSON and streamed requests): after the restart the same request is still refused.',
  fix: 'Keep spend state in the database (not in memory) so it survives a restart.',
  run: appsRun(async (fx) => {
    if (!fx.restart) return { ok: true, skip: true, message: 'not run: needs --gateway-cmd to restart the gateway (this run checks a gateway it did not start)' };
    const all = await spendDenials(fx);
    const denials = all.filter((d) => refused(d.denied.status));
    if (!denials.length) return { ok: true, skip: true, message: `no spend denial to carry over a restart (the requests over the cap got ${all.map((d) => d.denied.status).join(' and ')}; see apps.spend.deny)` };
    await fx.restart();
    const statuses = new Set<number>();
    // The limit is daily: a run that crosses UTC midnight between the denial and now finds the
    // user's window reset, and a gateway that serves them again is right.
    const reset: string[] = [];
    const judged: string[] = [];
    for (const d of denials) {
      const r = await messages(fx, d.token, 'claude-sonnet-4-6', { stream: d.how.stream });
      const today = utcDay();
      if (r.status !== d.denied.status && d.day !== today) reset.push(`${d.how.label}: denied on ${d.day}, served again on ${today}, a new daily window`);
      else if (r.status !== d.denied.status) return fail(`after a restart the user over the cap is served again (spend state lost; ${d.how.label})`, { expected: String(d.denied.status), actual: brief(r) });
      else {
        statuses.add(r.status);
        judged.push(d.how.label);
      }
    }
    if (reset.length === denials.length) return { ok: true, skip: true, message: `not judged: the daily spend window of every denial ended at UTC midnight before the restart (${reset.join('; ')}); run again` };
    const unjudged = [...all.filter((d) => !denials.includes(d)).map((d) => ` (${d.how.label}: no denial to carry over, see apps.spend.deny)`), ...reset.map((x) => ` (not judged, ${x})`)];
    return pass(`still ${[...statuses].join('/')} after the restart, for ${judged.join(' and ')}${unjudged.join('')}`);
  }),
});
