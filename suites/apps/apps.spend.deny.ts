import { defineCheck, fail, pass, type Verdict } from '../../src/check/check.js';
import { appsRun, brief, errorType, isJson, messages, spendDenials, type AppsFixture, type SpendDenial } from './common.js';
import { excerpt } from '../shared/evidence.js';

/** The verdict on one spend denial (JSON or streamed requests). */
async function judge(fx: AppsFixture, d: SpendDenial): Promise<Verdict> {
  const evidence = { requests: d.how.label, first: d.first.status, denied: brief(d.denied) };
  if (d.first.status !== 200) return fail('the request that took the user over the cap was not served', { actual: brief(d.first), evidence });
  const r = d.denied;
  if (![402, 403, 429].includes(r.status)) return fail('the request over the spend limit was not refused with 402, 403 or 429', { expected: '402/403/429', actual: brief(r), evidence });
  // The request right after the one that took the user over the cap must already be refused.
  const late = d.later ? `the request right after the one that took the user over the cap was served (${d.next.status}); a refusal came only ${d.later} request${d.later > 1 ? 's' : ''} later (the spend was counted after answering)` : '';
  if (!isJson(r)) return fail([late, 'the spend denial is not JSON'].filter(Boolean).join('; '), { expected: 'application/json', actual: brief(r), evidence });
  const text = r.text;
  const states = { limit: /"limit"|\b1 ?(us )?cents?\b|\$0\.01/i.test(text), window: /daily|day\b/i.test(text), reset: /reset/i.test(text) && /\d{4}-\d{2}-\d{2}|\b\d{10}\b|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}\b/i.test(text) };
  const missing = Object.entries(states).filter(([, v]) => !v).map(([k]) => k);
  if (missing.length) return fail([`the spend denial does not state the ${missing.join(', ')}`, late].filter(Boolean).join('; '), { expected: 'limit, window and reset in the JSON body', actual: excerpt(text, 300), evidence: { ...evidence, next: brief(d.next) } });
  if (late) return fail(late, { expected: 'the next request refused', actual: brief(d.next), evidence });
  const again = await messages(fx, d.token, 'claude-sonnet-4-6', { stream: d.how.stream });
  if (again.status !== r.status || errorType(again) !== errorType(r)) return fail('the spend denial is not stable: a second request got another answer', { actual: brief(again), evidence });
  return pass(`${r.status} ${String(errorType(r))} stating limit, window and reset`, evidence);
}

export default defineCheck({
  id: 'apps.spend.deny',
  title: 'Over the spend limit: a stable JSON error, HTTP 402/403/429, stating the limit, the window and the reset (JSON and streamed requests)',
  requirements: ['APP-SPEND-1'],
  level: 'MUST',
  profile: 'apps',
  requirement:
    'Over the limit: a stable JSON error, HTTP 402, 403 or 429, stating the limit, the window and the reset (7). The limit is set through the Admin API (1 cent, daily); the upstream reports large usage once. Done twice, by two users: with JSON requests, and with streamed requests (as Claude Code sends them: the usage is in the stream).',
  fix: 'Over the limit, answer a stable JSON error (402, 403 or 429) that states the limit, the window and the reset, and count spend (of streamed answers too) before serving the next request.',
  // The reset may be a date, a Unix time or a day written out ("resets Nov 23", as the Claude apps gateway words it).
  run: appsRun(async (fx) => {
    const verdicts: [SpendDenial, Verdict][] = [];
    for (const d of await spendDenials(fx)) verdicts.push([d, await judge(fx, d)]);
    const bad = verdicts.find(([, v]) => !v.ok);
    if (bad) return { ...bad[1], message: `with ${bad[0].how.label}: ${bad[1].message}` };
    return pass(verdicts.map(([d, v]) => `with ${d.how.label}: ${v.message}`).join('; '));
  }),
});
