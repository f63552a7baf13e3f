import { defineCheck, fail, pass } from '../../src/check/check.js';
import type { Protocol } from '../../src/core/features.js';
import { RECORDS, obj, parseJson, str } from '../../src/protocols/index.js';
import { ERROR_TYPES, retryGuidanceHeaders } from '../../src/protocols/messages/index.js';
import { exchange, notForwarded } from '../shared/exchange.js';
import { exchangeEvidence, excerpt } from '../shared/evidence.js';
import { notTranslated, translation } from '../shared/route.js';
import { richBody, routeEvidence, ON_TRANSLATED_ROUTE } from './common.js';

/** Statuses a client acts on differently: a request to fix, a wait to honour, an outage. */
const STATUSES = [400, 429, 500] as const;

/** Upstreams whose error messages can carry cloud account ids (their records say so): the gateway may send a generic message, keeping status and error.type (ERR-PASS-1). */
const cloud = (p: Protocol) => RECORDS[p].errorsNameTheAccount === true;

/** Keys that carry a stack trace in an error body: the messages error has no place for them. */
const STACK_KEYS = ['stack', 'stacktrace', 'stack_trace', 'traceback', 'trace'];

/** How a body misses the messages error's shape, each part said: the top-level type, error.type, error.message, a stack trace beside them. */
function shapeMisses(v: Record<string, unknown>, e: Record<string, unknown>): string[] {
  const stack = [...STACK_KEYS.filter((k) => k in e).map((k) => `error.${k}`), ...STACK_KEYS.filter((k) => k in v)];
  return [
    ...(v.type !== 'error' ? [`its top-level type is ${v.type === undefined ? 'missing' : JSON.stringify(v.type)} where it is "error"`] : []),
    ...(v.error === undefined ? ['it has no error object'] : typeof e.type !== 'string' ? [`error.type is ${e.type === undefined ? 'missing' : `${JSON.stringify(e.type)}, not a string`}`] : []),
    ...(v.error !== undefined && typeof e.message !== 'string' ? [`error.message is ${e.message === undefined ? 'missing' : 'not a string'}`] : []),
    ...(stack.length ? [`it carries a stack trace (${stack.join(', ')})`] : []),
  ];
}

/**
 * What is wrong with the client's answer to an upstream `status` error carrying `message`,
 * answered in `upstream`'s protocol. From a cloud upstream the message may be generic (unless
 * --strict, the letter of the interface) and the messages protocol's error.type for the status
 * is required instead; from any other, the upstream's message must be in it.
 */
export function errorProblems(a: { status: number; upstream: Protocol; strict: boolean; message: string; resStatus: number; body: string; retryAfter: string | undefined }): string[] {
  const v = obj(parseJson(a.body));
  const e = obj(v.error);
  const shape = v.type === 'error' && typeof e.type === 'string' && typeof e.message === 'string';
  const generic = cloud(a.upstream) && !a.strict;
  const want = ERROR_TYPES[a.status];
  return [
    ...(a.resStatus !== a.status ? [`status ${a.resStatus} where the upstream answered ${a.status}`] : []),
    ...(!shape ? [`not a messages error ({"type":"error","error":{"type","message"}}): ${shapeMisses(v, e).join(', ')}`] : []),
    ...(shape && cloud(a.upstream) && e.type !== want ? [`error.type ${JSON.stringify(e.type)} where a ${a.status} is ${JSON.stringify(want)}`] : []),
    ...(shape && !generic && !str(e.message).includes(a.message) ? ["the upstream's message is not in it"] : []),
    ...(a.status === 429 && a.retryAfter !== '17' ? [`retry-after ${a.retryAfter ?? 'missing'} where the upstream said 17`] : []),
  ];
}

export default defineCheck({
  id: 'translate.errors.mapped',
  title: "An upstream error on a translated route reaches the client in its own error shape with the upstream's status and message",
  requirements: ['XLATE-ERR-1'],
  ...ON_TRANSLATED_ROUTE,
  requirement:
    "On a translated route an upstream error reaches the client in the client protocol's error shape, with the upstream's status (a 429 stays a 429, with its retry-after) and its message; from a cloud upstream (Bedrock, Vertex) the messages protocol's error.type for the status, and the message may be generic (ERR-PASS-1; the upstream's message is required under --strict).",
  fix: 'Map an upstream error to the client protocol\'s error shape (`{"type":"error","error":{"type","message"}}`) with the upstream\'s status and message; pass `retry-after` with a 429. Never turn a 4xx into a 500.',
  async run(ctx) {
    const seenRoutes: string[] = [];
    /** The statuses whose message reached the client generic: allowed from a cloud upstream without --strict. */
    const generic: number[] = [];
    for (const status of STATUSES) {
      const message = `gw-conformance scripted ${status} for the translated route`;
      const headers = status === 429 ? retryGuidanceHeaders(429).filter(([k]) => k === 'retry-after') : [];
      const x = await exchange(ctx, richBody(), { reply: (c) => c.upstream.next().error(status, { message, headers }) });
      if (!x.seen) return notForwarded(x);
      const t = translation('messages', x.seen);
      if (!t) return notTranslated('messages', x.seen);
      seenRoutes.push(`${status} in ${x.seen.answeredIn}`);
      const evidence = { ...routeEvidence(ctx, x.seen), ...exchangeEvidence(x) };
      const problems = errorProblems({ status, upstream: t.to, strict: ctx.settings.strict === true, message, resStatus: x.res.status, body: x.res.text(), retryAfter: x.res.header('retry-after') });
      if (problems.length)
        return fail(`an upstream ${status} answered in ${t.to} reached the client as ${problems.join('; ')}`, {
          expected: `status ${status}, {"type":"error","error":{"type":…,"message":"…${message}…"}}${status === 429 ? ', retry-after 17' : ''}`,
          actual: `status ${x.res.status}, ${excerpt(x.res.text(), 300)}`,
          evidence,
        });
      if (!str(obj(obj(parseJson(x.res.text())).error).message).includes(message)) generic.push(status);
    }
    if (generic.length)
      return pass(`each upstream error (${seenRoutes.join(', ')}) reached the client as a messages error with its status and error.type; the message of the ${generic.join(', ')} was generic (allowed from a cloud upstream, ERR-PASS-1; --strict requires the upstream's)`);
    return pass(`each upstream error (${seenRoutes.join(', ')}) reached the client as a messages error with its status and message`);
  },
});
