// APP-DISC-1: model discovery is not behind the login: JSON list with a session token, JSON 401
// without one, no redirect, within the client's 3 s time-out. The time is the gateway's: what
// this process's event loop was held meanwhile (another run's set-up beside this one, a loaded
// machine: src/core/stall.ts) is not counted against it. A pair of calls slower than 3 s only
// with those holds counted is measured again (at most MEASUREMENTS times); a gateway slower than
// 3 s with every hold taken off fails.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { against, MEASUREMENTS } from '../../src/core/stall.js';
import { appsRun, bearer, brief, call, isJson, session, type AppsFixture, type Reply } from './common.js';
import { plural } from '../../src/core/words.js';

/** Claude Code gives up on discovery after this long. */
export const CLIENT_TIMEOUT_MS = 3000;

const pair = async (fx: AppsFixture, token: string) => ({
  withToken: await call(`${fx.gatewayUrl}/v1/models`, { headers: bearer(token) }),
  none: await call(`${fx.gatewayUrl}/v1/models`, { headers: { 'anthropic-version': '2023-06-01' } }),
});
type Pair = Awaited<ReturnType<typeof pair>>;
const round = (r: Reply) => ({ ms: Math.round(r.ms), heldMs: Math.round(r.stalledMs) });
/** The gateway's time at least: what was measured with this process's holds taken off. */
const gatewayMs = (r: Reply) => r.ms - r.stalledMs;
const slowest = (p: Pair) => (p.withToken.ms >= p.none.ms ? p.withToken : p.none);

/** 'within' (measured within the time-out), 'over' (over it with every hold taken off), or 'undecided'. */
function timeOf(p: Pair): 'within' | 'over' | 'undecided' {
  const times = [p.withToken, p.none].map((r) => against(CLIENT_TIMEOUT_MS, { ms: r.ms, heldMs: r.stalledMs }));
  if (times.includes('over')) return 'over';
  return times.every((t) => t === 'within') ? 'within' : 'undecided';
}

export default defineCheck({
  id: 'apps.disc.models',
  title: 'Model discovery answers JSON with a session token and JSON 401 without one, no IdP redirect, within 3 s',
  requirements: ['APP-DISC-1'],
  level: 'MUST',
  profile: 'apps',
  requirement: 'Model discovery is not put behind OIDC login.',
  fix: 'Keep `/v1/models` out of the login flow: JSON list with a session token, JSON 401 without one, no redirect to the IdP, within 3 s.',
  run: appsRun(async (fx) => {
    const token = await session(fx, 'alice');
    let p = await pair(fx, token);
    const { withToken, none } = p;
    const measured = [{ withToken: round(withToken), withoutToken: round(none) }];
    const evidence = { withToken: brief(withToken), withoutToken: brief(none), measured };
    const data = (withToken.json as { data?: unknown } | undefined)?.data;
    if (withToken.status !== 200 || !isJson(withToken) || !Array.isArray(data)) return fail('with a valid session token, /v1/models did not answer a JSON model list', { expected: '200 JSON {data: [...]}', actual: brief(withToken), evidence });
    if (none.status >= 300 && none.status < 400) return fail('without a token, /v1/models redirected (discovery behind the IdP login)', { expected: 'JSON 401', actual: `${none.status} location ${none.headers.get('location') ?? '-'}`, evidence });
    if (none.status !== 401 || !isJson(none)) return fail('without a token, /v1/models did not answer JSON 401', { expected: 'JSON 401', actual: brief(none), evidence });
    while (timeOf(p) === 'undecided' && measured.length < MEASUREMENTS) {
      p = await pair(fx, token);
      measured.push({ withToken: round(p.withToken), withoutToken: round(p.none) });
    }
    const time = timeOf(p);
    if (time === 'over') {
      const s = slowest(p);
      return fail('model discovery took longer than 3 s', { expected: `≤ ${CLIENT_TIMEOUT_MS} ms`, actual: `${Math.round(s.ms)} ms (${Math.round(gatewayMs(s))} ms with this process's holds taken off)`, evidence });
    }
    // The harness could not tell: its own holds explain the time in every measurement. Not the gateway's verdict.
    if (time === 'undecided') throw new Error(`model discovery's time could not be judged: this process's event loop was held for most of it in each of ${MEASUREMENTS} measurements (${JSON.stringify(measured)})`);
    return pass(`JSON list of ${plural(data.length, 'model')} with a token, JSON 401 without, no redirect, within ${CLIENT_TIMEOUT_MS} ms${measured.length > 1 ? ` (measured ${measured.length} times: this process was held during the first)` : ''}`, evidence);
  }),
});
