import { defineCheck, fail, pass } from '../../src/check/check.js';
import { obj, parseJson, str } from '../../src/protocol/read.js';
import { retryGuidanceHeaders } from '../../src/upstream/replies/errors.js';
import { exchange, notForwarded } from '../shared/exchange.js';
import { exchangeEvidence, cut } from '../shared/evidence.js';
import { notTranslated, translation } from '../shared/route.js';
import { richBody, routeEvidence, ON_TRANSLATED_ROUTE } from './common.js';

/** Statuses a client acts on differently: a request to fix, a wait to honour, an outage. */
const STATUSES = [400, 429, 500] as const;

export default defineCheck({
  id: 'translate.errors.mapped',
  title: "An upstream error on a translated route reaches the client in its own error shape with the upstream's status and message",
  requirements: ['XLATE-ERR-1'],
  ...ON_TRANSLATED_ROUTE,
  requirement:
    "On a translated route an upstream error reaches the client in the client protocol's error shape, with the upstream's status (a 429 stays a 429, with its retry-after) and its message.",
  async run(ctx) {
    const seenRoutes: string[] = [];
    for (const status of STATUSES) {
      const message = `gw-conformance scripted ${status} for the translated route`;
      const headers = status === 429 ? retryGuidanceHeaders(429).filter(([k]) => k === 'retry-after') : [];
      const x = await exchange(ctx, richBody(), { reply: (c) => c.upstream.next().error(status, { message, headers }) });
      if (!x.seen) return notForwarded(x);
      const t = translation('messages', x.seen);
      if (!t) return notTranslated('messages', x.seen);
      seenRoutes.push(`${status} in ${x.seen.answeredIn}`);
      const evidence = { ...routeEvidence(ctx, x.seen), ...exchangeEvidence(x) };
      const v = obj(parseJson(x.res.text()));
      const shape = v.type === 'error' && typeof obj(v.error).type === 'string' && typeof obj(v.error).message === 'string';
      const problems = [
        ...(x.res.status !== status ? [`status ${x.res.status} where the upstream answered ${status}`] : []),
        ...(!shape ? ['not a messages error ({"type":"error","error":{"type","message"}})'] : []),
        ...(shape && !str(obj(v.error).message).includes(message) ? ["the upstream's message is not in it"] : []),
        ...(status === 429 && x.res.header('retry-after') !== '17' ? [`retry-after ${x.res.header('retry-after') ?? 'missing'} where the upstream said 17`] : []),
      ];
      if (problems.length)
        return fail(`an upstream ${status} answered in ${t.to} reached the client as ${problems.join('; ')}`, {
          expected: `status ${status}, {"type":"error","error":{"type":…,"message":"…${message}…"}}${status === 429 ? ', retry-after 17' : ''}`,
          actual: `status ${x.res.status}, ${cut(x.res.text(), 300)}`,
          evidence,
        });
    }
    return pass(`each upstream error (${seenRoutes.join(', ')}) reached the client as a messages error with its status and message`);
  },
});
