// CACHE-KEY-1 in pairs: one request, then another that differs from it in one thing (a body
// field, `stream`, the credential) or in nothing. Both belong to one case, and the recording
// upstream answers the second request of the case with other content than the first (the
// reply's `later`), so an answer replayed from a cache shows twice over: the upstream saw one
// request for two, and the second answer is the first one's. A pair that differs must never be
// answered from the first one's entry; an identical pair may be, but what is replayed must be
// an answer the client can read, framed for its own connection.
import type { CheckContext, Verdict } from '../../src/check/check.js';
import { fail, pass } from '../../src/check/check.js';
import type { AuthStyle, GwResponse } from '../../src/client/gateway.js';
import { withToken } from '../../src/upstream/contract.js';
import type { Expectation } from '../../src/upstream/upstream.js';
import { maskHeaders } from '../../src/core/mask.js';
import { OTHER_CREDENTIAL } from './isolation.js';
import { attempt, withBound } from './shape.js';
import { cut } from './evidence.js';

/** How long one request of a pair may take. */
const WAIT_MS = 10_000;
/** A forwarded second request arrives within this bound after its answer, or is not counted. */
const LATE_MS = 300;

/** One request of a pair: `body` keeps its case placeholder; `auth` is the run's credential in that style, or `other`: another key as x-api-key. */
export interface KeyedRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Array<[string, string]>;
  body?: string;
  auth: AuthStyle | 'other';
}

/** A pair: what tells the second request from the first (`same`: nothing), and the two requests. */
export interface KeyPair {
  differs: string;
  same?: boolean;
  first: KeyedRequest;
  second: KeyedRequest;
}

export interface KeyPairResult {
  differs: string;
  verdict: 'forwarded' | 'served' | 'bad-replay' | 'replayed' | 'not-applicable';
  note: string;
  evidence: Record<string, unknown>;
}

/** Why a replayed answer is framed for another connection: both lengths, a length the body does not have, or no answer at all. */
function framingFaults(r: GwResponse): string[] {
  const named = (n: string) => r.rawHeaders.filter(([k]) => k.toLowerCase() === n).map(([, v]) => v);
  const out: string[] = [];
  const lengths = named('content-length');
  const te = named('transfer-encoding');
  if (lengths.length && te.length) out.push(`both Content-Length (${lengths.join(', ')}) and Transfer-Encoding (${te.join(', ')})`);
  if (lengths.length > 1) out.push(`${lengths.length} Content-Length headers`);
  if (lengths.length === 1 && !r.truncated && Number(lengths[0]) !== r.wireBytes) out.push(`Content-Length ${lengths[0]} for ${r.wireBytes} bytes`);
  return out;
}

function send(ctx: CheckContext, req: KeyedRequest, e: Expectation) {
  const auth = req.auth === 'other' ? 'none' : req.auth;
  const headers: Array<[string, string]> = req.auth === 'other' ? [...req.headers, ['x-api-key', OTHER_CREDENTIAL]] : req.headers;
  const body = req.body === undefined ? undefined : withToken(req.body, e.token);
  return attempt(() => withBound(ctx.signal, WAIT_MS, (signal) => ctx.gateway.send({ method: req.method, path: req.path, auth, body, headers, caseToken: e.token, signal })));
}

const seen = (r: GwResponse) => ({ status: r.status, headers: maskHeaders(r.rawHeaders), body: cut(r.text(), 300) });

/** Sends a pair in one case and says whether the second request was answered from the first one's entry. */
export async function keyPair(ctx: CheckContext, pair: KeyPair, reply: () => Expectation): Promise<KeyPairResult> {
  const e = reply();
  const first = await send(ctx, pair.first, e);
  if (!first.ok || first.value.status !== 200 || !e.hits.length)
    return { differs: pair.differs, verdict: 'not-applicable', note: `the first request got ${first.ok ? first.value.status : first.error}${first.ok && !e.hits.length ? ' without reaching the upstream' : ''}: no answer to reuse`, evidence: {} };
  const second = await send(ctx, pair.second, e);
  const hits = await e.waitForHits(2, LATE_MS);
  const evidence: Record<string, unknown> = { upstreamHits: hits, first: seen(first.value), second: second.ok ? seen(second.value) : second.error };
  const what = pair.same ? 'the same request again' : `a request that differs in ${pair.differs}`;
  if (!second.ok)
    return hits < 2
      ? { differs: pair.differs, verdict: 'bad-replay', note: `${what} reached no upstream and its answer could not be read (${second.error}): a replayed entry framed for another connection`, evidence }
      : { differs: pair.differs, verdict: 'forwarded', note: `${what}: forwarded, but its answer failed (${second.error})`, evidence };
  if (hits >= 2) return { differs: pair.differs, verdict: 'forwarded', note: `${what}: forwarded`, evidence };
  if (second.value.status >= 300) return { differs: pair.differs, verdict: 'forwarded', note: `${what}: refused (${second.value.status})`, evidence };
  const replayedFirst = second.value.wireSha256 === first.value.wireSha256;
  if (!pair.same)
    return { differs: pair.differs, verdict: 'served', note: `${what} was answered ${second.value.status} from the first one's entry (the upstream saw 1 request for 2${replayedFirst ? '; the body is the first answer byte for byte' : ''})`, evidence };
  const framing = framingFaults(second.value);
  if (framing.length) return { differs: pair.differs, verdict: 'bad-replay', note: `${what}, answered from a cache, carries framing of another connection: ${framing.join('; ')}`, evidence };
  return { differs: pair.differs, verdict: 'replayed', note: `${what}: answered from a cache, framed for its own connection`, evidence };
}

/** The verdict over the pairs: the first breach, a skip when no first answer came, or how each pair went. */
export function judgeKeyPairs(results: KeyPairResult[]): Verdict {
  const evidence = { pairs: results.map((p) => ({ differs: p.differs, verdict: p.verdict, note: p.note, ...p.evidence })) };
  const broken = results.filter((p) => p.verdict === 'served' || p.verdict === 'bad-replay');
  if (broken.length)
    return fail(broken.map((p) => p.note).join('; '), {
      expected: 'a request that differs in a body field, in stream or in credential forwarded on its own (or refused); a replayed answer framed for its own connection',
      actual: broken.map((p) => p.note).join('; '),
      evidence,
    });
  const tried = results.filter((p) => p.verdict !== 'not-applicable');
  if (!tried.length) return { ok: true, skip: true, message: `no pair had a first answer to reuse: ${results.map((p) => p.note).join('; ')}`, evidence };
  const untried = results.filter((p) => p.verdict === 'not-applicable');
  return pass(`${tried.map((p) => p.note).join('; ')}${untried.length ? `; not judged, for want of a first answer: ${untried.map((p) => `${p.differs} (${p.note})`).join('; ')}` : ''}`, evidence);
}
