import { defineCheck, fail, pass, type Verdict } from '../../src/check/check.js';
import { limitText } from '../../src/core/limits.js';
import { sendMix } from './common.js';
import { declared, overLimit, retryAfterS } from './limits.js';

/** The longest retry-after the check waits out. */
const MAX_WAIT_S = 20;

export default defineCheck({
  id: 'load.limit.retry-after',
  title: 'A request retried after the retry-after of a 429 is served',
  requirements: ['LIMIT-2'],
  level: 'SHOULD',
  profile: 'load',
  credential: true,
  // Alone: a limit is a shared budget, so no other check's requests may count against it.
  exclusive: true,
  timeLimitMs: () => (MAX_WAIT_S + 15) * 1000,
  requirement: 'The retry-after a gateway gives with a 429 is honest: a request retried once that time has passed is served, when nothing else has used the budget meanwhile.',
  fix: 'Compute `retry-after` from the limit\'s own window or queue: at least the time until the window resets or a slot frees, rounded up to whole seconds; never a fixed 0 or 1 s.',
  async run(ctx): Promise<Verdict> {
    const limit = declared(ctx);
    if (!limit) return { ok: true, skip: true, message: 'no gateway-level limit declared (--declared-limit rps=N or concurrency=N)' };
    const { over } = await overLimit(ctx, limit, '-retry', 1);
    const refused = over.result.outcomes.find((o) => o.status === 429);
    if (!refused) return { ok: true, skip: true, message: `no 429 over the declared limit (${limitText(limit)}): load.limit.refused says why` };
    const wait = retryAfterS(refused);
    if (wait === null) return { ok: true, skip: true, message: 'the 429 has no readable retry-after (load.limit.refused fails it)' };
    if (wait > MAX_WAIT_S) return { ok: true, skip: true, message: `retry-after ${wait} s is longer than this check waits (${MAX_WAIT_S} s)` };
    // Waiting out the gateway's own retry-after is what is tested, not synchronisation.
    await new Promise((r) => setTimeout(r, wait * 1000));
    const again = await sendMix(ctx, { route: 'gateway', credentialSuffix: '-retry', kinds: () => ({ protocol: 'messages', stream: false }), rate: 100, count: 1, clients: 1 });
    const o = again.result.outcomes[0];
    const evidence = { limit: limitText(limit), retryAfterS: wait, retried: o.status };
    if (o.status !== 200) return fail(`retried after the ${wait} s the 429 asked for, the request got ${o.status || o.error}`, { expected: 'served (200)', actual: String(o.status || o.error), evidence });
    return pass(`retried after the ${wait} s the 429 asked for, the request was served`, evidence);
  },
});
