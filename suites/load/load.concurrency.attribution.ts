import { defineCheck, fail, pass } from '../../src/check/check.js';
import { encodeHistogram, percentiles, percentilesText } from '../../src/core/histogram.js';
import { attribution, concurrencyOf, kindsOf, loadSettings, OVERLAP_BATCH, sendMix, unlessLimited } from './common.js';
import { plural } from '../../src/core/words.js';

export default defineCheck({
  id: 'load.concurrency.attribution',
  title: 'Under concurrent load (many clients, every protocol, streamed and not), every answer reaches the client that asked, once, and every request reaches the upstream once',
  requirements: ['LOAD-1'],
  level: 'MUST',
  profile: 'load',
  requirement:
    'Under concurrency every answer reaches the client that sent the request: no answer crosses to another client, none is lost or duplicated, and every request reaches the upstream exactly once. Each request carries its own case token and the upstream answers with it, so a crossed answer shows as another request\'s token.',
  fix: 'Keep every exchange to its own connection pair: no response cache keyed on less than the whole request (a cache keyed on the model alone serves one user\'s answer to another), no buffer or state shared between requests in flight, and no retry that sends a request upstream twice. The evidence names each request that got another\'s answer, none, or reached the upstream more or less than once.',
  run: unlessLimited(async (ctx) => {
    const s = loadSettings(ctx);
    const kinds = kindsOf(ctx);
    const count = Math.max(kinds.length, Math.min(s.requests, s.rate * s.durationS));
    // Overlap made certain: the upstream holds the answers until a batch is waiting, so that many requests are in flight at the gateway at once.
    const sent = await sendMix(ctx, { route: 'gateway', kinds: (i) => kinds[i % kinds.length], rate: s.rate, count, overlap: OVERLAP_BATCH });
    const { result, planned } = sent;
    const c = concurrencyOf(sent);
    const wrong = result.outcomes.map((o) => [o, attribution(o, planned[o.index])] as const).filter(([, why]) => why);
    const evidence = { requests: count, rate: s.rate, clients: s.clients, concurrency: { client: c.client, upstream: c.upstream, batch: c.batch }, latency: percentiles(result.latency), misattributed: wrong.length, histograms: { latency: encodeHistogram(result.latency) }, wrong: wrong.slice(0, 10).map(([o, why]) => `request ${o.index} (${planned[o.index].kind.protocol}${planned[o.index].kind.stream ? ', streamed' : ''}): ${why}`) };
    if (wrong.length)
      return fail(`${wrong.length} of ${count} concurrent requests did not get exactly their own answer: request ${wrong[0][0].index} ${wrong[0][1]} (${c.text})`, {
        expected: 'each answer carries its own request\'s case token, and each request reached the upstream once',
        actual: `${wrong.length} misattributed, lost or duplicated`,
        evidence,
      });
    return pass(`${plural(count, 'request')} from ${plural(s.clients, 'client')} at ${s.rate}/s, every answer its own; ${c.text} (${percentilesText(percentiles(result.latency))})`, evidence);
  }),
});
