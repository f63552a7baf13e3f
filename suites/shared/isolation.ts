// ISO-1 in pairs: the same cacheable request sent first with the run's credential, then with
// another credential in the same style (or with none); the second must reach the upstream on
// its own or be refused, never be answered with what the first got. Shared by the checks of
// the model lists and of cacheable POST answers, for every credential style a protocol allows.
import { fail, pass, type CheckContext, type Verdict } from '../../src/check/check.js';
import type { AuthStyle } from '../../src/client/gateway.js';
import { withToken } from '../../src/upstream/contract.js';
import { headerValues, type RecordedRequest } from '../../src/upstream/record.js';
import type { Expectation } from '../../src/upstream/upstream.js';
import { maskHeaders, maskUrl } from '../../src/core/mask.js';
import { credentialHeader } from '../../src/core/protocols.js';
import { attempt, withBound } from './shape.js';

/** A second, different credential: what another user of the same gateway sends. */
export const OTHER_CREDENTIAL = 'sk-ant-api03-gwc-second-user-credential-00000000';
/** How long one request of a pair may take. */
const WAIT_MS = 10_000;
/** A forwarded second request arrives within this bound after its answer, or is not counted. */
const LATE_MS = 300;

/** The pairs in the credential styles Claude Code sends (Bearer, x-api-key): each first style, followed by another key and by none. */
export const CLAUDE_CODE_PAIRS: Array<[AuthStyle, Second]> = [
  ['bearer', 'other'],
  ['x-api-key', 'other'],
  ['bearer', 'none'],
  ['x-api-key', 'none'],
];

/** One request of a pair: `body` keeps its case placeholder, filled with the pair's token. */
export interface IsoRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Array<[string, string]>;
  body?: string;
}

/** How the second request carries its credential: another key in the first one's style, or none. */
export type Second = 'other' | 'none';

export interface PairResult {
  /** e.g. "x-api-key, then another key". */
  what: string;
  verdict: 'isolated' | 'served' | 'first-key' | 'not-applicable';
  /** One line on what happened. */
  note: string;
  evidence: Record<string, unknown>;
}

/** The second request's own credential: `OTHER_CREDENTIAL` in `style`, as headers or a `key` query parameter. */
function otherCredential(style: AuthStyle, path: string): { path: string; headers: Array<[string, string]> } {
  const header = credentialHeader(style, OTHER_CREDENTIAL);
  if (header) return { path, headers: [header] };
  return { path: `${path}${path.includes('?') ? '&' : '?'}key=${OTHER_CREDENTIAL}`, headers: [] };
}

/** Every credential a recorded request carries, in any header or the `key` parameter. */
function credentialsOf(r: RecordedRequest): string[] {
  const query = new URL(r.url, 'http://upstream').searchParams.getAll('key');
  return [...headerValues(r, 'authorization'), ...headerValues(r, 'x-api-key'), ...headerValues(r, 'x-goog-api-key'), ...query];
}

const seenEvidence = (r: RecordedRequest | undefined) => (r ? { url: maskUrl(r.url), headers: maskHeaders(r.rawHeaders) } : 'no request reached the upstream');

/**
 * Sends `req` with the run's credential in `style`, then (same case, same body) with another
 * key in that style or with none, and says whether the second was answered on its own.
 */
export async function isolationPair(ctx: CheckContext, req: IsoRequest, style: AuthStyle, second: Second, reply: () => Expectation): Promise<PairResult> {
  const what = `${style}, then ${second === 'none' ? 'no credential' : 'another key'}`;
  const e = reply();
  const body = req.body === undefined ? undefined : withToken(req.body, e.token);
  const path = ownKeySpace(req, e.token);
  const send = (path: string, auth: AuthStyle | 'none', headers: Array<[string, string]>) =>
    attempt(() => withBound(ctx.signal, WAIT_MS, (signal) => ctx.gateway.send({ method: req.method, path, auth, body, headers: [...req.headers, ...headers], caseToken: e.token, signal })));
  const first = await send(path, style, []);
  if (!first.ok || first.value.status !== 200 || !e.hits.length)
    return { what, verdict: 'not-applicable', note: `the first request got ${first.ok ? first.value.status : first.error}${first.ok && !e.hits.length ? ' without reaching the upstream' : ''}: no answer to reuse`, evidence: { first: first.ok ? first.value.status : first.error } };
  const other = second === 'none' ? { path, headers: [] } : otherCredential(style, path);
  const r = await send(other.path, 'none', other.headers);
  if (!r.ok) return { what, verdict: 'isolated', note: `the second request got no answer (${r.error})`, evidence: { second: r.error } };
  const hits = await e.waitForHits(2, LATE_MS);
  const seen = e.hits[1];
  const carriedFirst = !!seen && credentialsOf(seen).some((v) => ctx.gateway.isRunCredential(v));
  const evidence = { firstStatus: first.value.status, secondStatus: r.value.status, upstreamHits: hits, secondUpstream: seenEvidence(seen), secondCarriedFirstKey: carriedFirst };
  if (r.value.status < 300 && !seen) return { what, verdict: 'served', note: `${what}: the second request was answered ${r.value.status} from what the first got (the upstream saw 1 request for 2)`, evidence };
  if (carriedFirst) return { what, verdict: 'first-key', note: `${what}: the second request reached the upstream with the first request's credential`, evidence };
  return { what, verdict: 'isolated', note: seen ? `${what}: forwarded on its own` : `${what}: refused (${r.value.status})`, evidence };
}

/**
 * The path a pair sends `req` to: a POST's body carries the pair's case token, so no cache keyed on
 * the request holds another pair's (or an earlier check's) answer for it; a GET has no body, so
 * the token goes into a query parameter of its own: each pair gets its own cache-key space.
 */
function ownKeySpace(req: IsoRequest, token: string): string {
  return req.method === 'GET' ? `${req.path}${req.path.includes('?') ? '&' : '?'}gwc-pair=${token}` : req.path;
}

/**
 * Each pair of `pairs` (first style, how the second carries its credential), one after another:
 * each has its own case and its own cache-key space (ownKeySpace), and its second request follows
 * its own first with no other pair's request between them, so a cache can answer a pair only with
 * what that pair's first request got.
 */
export async function isolationPairs(ctx: CheckContext, req: IsoRequest, pairs: Array<[AuthStyle, Second]>, reply: () => Expectation): Promise<PairResult[]> {
  const out: PairResult[] = [];
  for (const [style, second] of pairs) out.push(await isolationPair(ctx, req, style, second, reply));
  return out;
}

/** The verdict over a check's pairs: the first breach (`what` names what was reused), a skip when no first answer came, or how each pair stood apart. */
export function judgePairs(results: PairResult[], what: string): Verdict {
  const evidence = { pairs: results.map((p) => ({ what: p.what, verdict: p.verdict, note: p.note, ...p.evidence })) };
  const broken = results.filter((p) => p.verdict === 'served' || p.verdict === 'first-key');
  if (broken.length)
    return fail(`${what} fetched with one credential was served to another request: ${broken.map((p) => p.note).join('; ')}`, {
      expected: 'every later request forwarded with its own credential, or refused',
      actual: broken.map((p) => p.note).join('; '),
      evidence,
    });
  const tried = results.filter((p) => p.verdict === 'isolated');
  if (!tried.length) return { ok: true, skip: true, message: `no pair had a first answer to reuse: ${results.map((p) => p.note).join('; ')}`, evidence };
  const untried = results.filter((p) => p.verdict === 'not-applicable');
  return pass(`each credential got its own answer: ${tried.map((p) => p.note).join('; ')}${untried.length ? `; not judged, for want of a first answer: ${untried.map((p) => `${p.what} (${p.note})`).join('; ')}` : ''}`, evidence);
}
