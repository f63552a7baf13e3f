import { defineCheck, fail, pass, type Verdict } from '../../src/check/check.js';
import { limitText } from '../../src/core/limits.js';
import { attribution } from './common.js';
import { declared, overLimit, refusalProblem } from './limits.js';

/** Requests sent over the limit. */
const EXTRA = 2;

export default defineCheck({
  id: 'load.limit.refused',
  title: 'Over a declared gateway limit (per credential), the request gets 429 with a JSON error and retry-after and never reaches the upstream; requests within it, and another credential\'s, are served',
  requirements: ['LIMIT-1'],
  level: 'MUST',
  profile: 'load',
  credential: true,
  // Alone: a limit is a shared budget, so no other check's requests may count against it.
  exclusive: true,
  requirement:
    'When a gateway-level limit the user declares (requests per window, or requests open at once, per credential) is exceeded, the over-limit request gets HTTP 429 with a JSON error and retry-after, and never reaches the upstream; requests within the limit, and other credentials\' requests, are unaffected.',
  fix: 'Decide the limit before forwarding, per credential, and refuse with a JSON 429 that carries `retry-after` (nginx: `limit_req_status 429;` / `limit_conn_status 429;` and a JSON `error_page 429`; the default is an HTML 503). Key the limit on the credential (e.g. `$http_x_api_key`), not on one shared zone for everyone.',
  async run(ctx): Promise<Verdict> {
    const limit = declared(ctx);
    if (!limit) return { ok: true, skip: true, message: 'no gateway-level limit declared (--declared-limit rps=N or concurrency=N)' };
    const mine = await overLimit(ctx, limit, '-limit-a', EXTRA);
    const other = await overLimit(ctx, limit, '-limit-b', 0);
    const problems: string[] = [];
    const served = [...mine.within.result.outcomes, ...mine.over.result.outcomes].filter((o) => o.status === 200).length;
    if (served !== limit.count) problems.push(`${served} of ${limit.count + EXTRA} requests sent at once over a limit of ${limit.count} were served (expected ${limit.count})`);
    for (const o of mine.over.result.outcomes) {
      const why = refusalProblem(o, mine.over.planned[o.index]);
      if (why) problems.push(`over the limit: request ${o.index}: ${why}`);
    }
    for (const [who, sent] of [['within the limit', mine.within], ['another credential', other.within]] as const)
      for (const o of sent.result.outcomes) {
        const why = attribution(o, sent.planned[o.index]);
        if (why) problems.push(`${who}: request ${o.index}: ${why}`);
      }
    const evidence = { limit: limitText(limit), over: mine.over.result.outcomes.map((o) => `${o.status} retry-after=${String(o.headers['retry-after'] ?? '-')}`), problems: problems.slice(0, 10) };
    if (problems.length) return fail(`declared limit ${limitText(limit)}: ${problems[0]}`, { expected: '429, JSON error, retry-after, nothing forwarded over the limit; everything within it served', actual: problems[0], evidence });
    return pass(`declared limit ${limitText(limit)}: ${EXTRA} requests over it got 429 with a JSON error and retry-after and were not forwarded; the others were served`, evidence);
  },
});
