// One request on a route beyond inference (Codex's compaction, a stored response and its cancel,
// a file upload, a batch, Codex's model catalog: the records' apiRoutes) through the gateway, with
// the upstream's scripted answer, and the one judgement those checks share: the request reached
// the upstream on its route as sent, and the upstream's status and body reached the client.
import type { CheckContext, Verdict } from '../../src/check/check.js';
import type { AuthStyle, GwResponse } from '../../src/client/gateway.js';
import type { Protocol } from '../../src/core/protocols.js';
import { describeDiff } from '../../src/core/json-diff.js';
import { withToken } from '../../src/upstream/contract.js';
import type { RecordedRequest } from '../../src/upstream/record.js';
import type { JsonReply } from '../../src/upstream/scenario.js';
import type { Expectation } from '../../src/upstream/upstream.js';
import { jsonReply, RECORDS } from '../../src/protocols/index.js';
import { exchangeEvidence, excerpt } from './evidence.js';
import { responseDiffs } from './exchange.js';
import { pathChange } from './route.js';

export interface RouteExchange {
  method: 'GET' | 'POST';
  /** The path as sent (its placeholder replaced by the case token). */
  path: string;
  res: GwResponse;
  seen: RecordedRequest | null;
  expectation: Expectation;
}

export interface RouteRequest {
  method: 'GET' | 'POST';
  /** The path; a case placeholder in it is replaced by the token (an id that carries it). */
  path: string;
  body?: string | Buffer;
  headers?: Array<[string, string]>;
  auth?: AuthStyle;
  reply: JsonReply;
}

/** A JSON reply written as protocol `p`'s upstream writes its bodies (its headers, the protocol named). */
export function routeReply(p: Protocol, body: unknown, status = 200): JsonReply {
  return { ...jsonReply(RECORDS[p].replies, JSON.stringify(body, null, 2), status), protocol: p };
}

/** A JSON error of protocol `p` (its own error shape), e.g. the upstream's 404 for an id it does not know. */
export function routeError(p: Protocol, status: number, message: string): JsonReply {
  return { ...jsonReply(RECORDS[p].replies, RECORDS[p].replies.error({ status, message }), status), protocol: p };
}

/** Sends one request on a route beyond inference, its case token in the path's placeholder, the body's and the hint header. */
export async function routeExchange(ctx: CheckContext, r: RouteRequest): Promise<RouteExchange> {
  const expectation = ctx.upstream.register(r.reply);
  const path = withToken(r.path, expectation.token);
  const body = typeof r.body === 'string' ? withToken(r.body, expectation.token) : r.body;
  const res = await ctx.gateway.send({ method: r.method, path, body, headers: r.headers, auth: r.auth, caseToken: expectation.token, signal: ctx.signal });
  const seen = await expectation.received(res.status < 300 ? 1000 : 200);
  return { method: r.method, path, res, seen, expectation };
}

/**
 * The shared judgement: null when the request reached the upstream as `method path` and the
 * client got the upstream's status and JSON body; else the failing verdict, saying what the
 * gateway did instead (answered itself, moved the path, changed the status or the body).
 */
export function passedThrough(x: RouteExchange, what: string): Verdict | null {
  const evidence = exchangeEvidence(x);
  const reply = x.expectation.reply as JsonReply;
  const want = `${x.method} ${x.path} forwarded, and the upstream's ${reply.status} with its JSON body back`;
  // The recording upstream's own 404 for a request it could tie to no case: the gateway dropped the hint header, and nothing can be judged.
  if (!x.seen && x.res.status === 404 && x.res.text().includes('no check expects this request'))
    return { ok: true, skip: true, message: `${what}: could not correlate: the request reached the upstream without its case token (the gateway dropped the x-gwc-case header, and the path carries none), so nothing could be judged; see unmatchedRequests in the report`, evidence };
  if (!x.seen)
    return { ok: false, message: `${what}: the request never reached the upstream; the gateway answered ${x.res.status} itself: ${excerpt(x.res.text(), 200)}`, expected: want, actual: `${x.res.status} from the gateway, no upstream request`, evidence };
  if (x.seen.method !== x.method || x.seen.url !== x.path)
    return { ok: false, message: `${what}: ${pathChange(x.method, x.path, `${x.seen.url}`)}${x.seen.method !== x.method ? ` (as ${x.seen.method})` : ''}`, expected: want, actual: `${x.seen.method} ${x.seen.url}`, evidence };
  if (x.res.status !== reply.status)
    return { ok: false, message: `${what}: the upstream answered ${reply.status}, the client got ${x.res.status}: ${excerpt(x.res.text(), 200)}`, expected: want, actual: `${x.res.status} ${x.res.header('content-type') ?? ''}`, evidence };
  const { diffs, parseError } = responseDiffs(x);
  if (parseError) return { ok: false, message: `${what}: the client's body is not the upstream's JSON (${parseError})`, expected: want, actual: excerpt(x.res.text(), 200), evidence };
  if (diffs.length) return { ok: false, message: `${what}: the upstream's body changed on the way: ${describeDiff(diffs[0])}`, expected: "the upstream's body as it sent it", actual: diffs.map(describeDiff).join('\n'), evidence: { diffs, ...evidence } };
  return null;
}
