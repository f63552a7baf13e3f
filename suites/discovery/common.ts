// Model discovery as Claude Code does it: GET
// /v1/models?limit=1000 with anthropic-version and its credentials: Bearer for
// ANTHROPIC_AUTH_TOKEN, x-api-key for ANTHROPIC_API_KEY, and both headers when both are set
// (Claude Code 2.1.330 does; the calls are tried with each style and with both), a 3 s
// time-out, redirects not followed and counted as failure. It reads `id` and `display_name`
// and keeps the ids that contain `claude` or `anthropic`, in any case.
//
// A GET has no body to carry the case token, so it travels in the x-gwc-case header only (the
// query must stay exactly limit=1000). A gateway that strips that header cannot be
// correlated: its forwarded request is answered 404 by the recording upstream and listed in
// the report's unmatchedRequests; checks that need the upstream's list then say so (skip).
import type { CheckContext, Verdict } from '../../src/check/check.js';
import { ANTHROPIC_VERSION, GatewayTimeoutError, type GwResponse } from '../../src/client/gateway.js';
import type { RecordedRequest } from '../../src/upstream/record.js';
import type { Expectation } from '../../src/upstream/upstream.js';
import { MODEL_LIST_HEADERS, modelListBody } from '../../src/protocols/messages/index.js';
import { maskHeaders, maskUrl } from '../../src/core/mask.js';
import { attempt, BAD_CREDENTIAL, describeShape, type Shape, shapeOf, withBound } from '../shared/shape.js';
import { cut } from '../shared/evidence.js';
import { metered } from '../../src/core/stall.js';

export const DISCOVERY_PATH = '/v1/models?limit=1000';
/** Claude Code gives up on discovery after this long. */
export const CLIENT_TIMEOUT_MS = 3000;
/** How long a check waits for one discovery answer: past the client's time-out, to report the real time. */
export const WAIT_MS = 10_000;

/** The credential styles discovery is tried with. */
export type Cred = 'bearer' | 'x-api-key' | 'both' | 'none' | 'bad-bearer' | 'bad-x-api-key';
/** `both`: Authorization: Bearer and x-api-key together, as the client sends them when both variables are set. */
export const VALID: Cred[] = ['bearer', 'x-api-key', 'both'];
export const ALL: Cred[] = ['bearer', 'x-api-key', 'both', 'none', 'bad-bearer', 'bad-x-api-key'];
export const isValid = (c: Cred) => c === 'bearer' || c === 'x-api-key' || c === 'both';

export interface Discovery {
  cred: Cred;
  /** The answer, or null when the connection failed or nothing came within the wait. */
  res: GwResponse | null;
  shape: Shape | null;
  failure?: string;
  /** From sending the request to the last body byte (or to giving up). */
  ms: number;
  /** Of `ms`, how long this process's event loop was held (src/core/stall.ts): time that is not the gateway's. */
  heldMs: number;
  expectation: Expectation;
}

/** The scripted upstream answer for a credential style: the list, or the 401 the real API gives. */
export function replyFor(ctx: CheckContext, cred: Cred): Expectation {
  return isValid(cred) ? ctx.upstream.next().json(modelListBody(), { headers: MODEL_LIST_HEADERS }) : ctx.upstream.next().error(401, { message: 'invalid x-api-key' });
}

function credentialHeaders(ctx: CheckContext, cred: Cred): { auth: 'bearer' | 'x-api-key' | 'none'; headers: Array<[string, string]> } {
  if (cred === 'both') return { auth: 'bearer', headers: ctx.gateway.credentialHeaders('x-api-key') };
  if (cred === 'bad-bearer') return { auth: 'none', headers: [['authorization', `Bearer ${BAD_CREDENTIAL}`]] };
  if (cred === 'bad-x-api-key') return { auth: 'none', headers: [['x-api-key', BAD_CREDENTIAL]] };
  return { auth: cred, headers: [] };
}

/** One discovery call, as the client makes it. `expectation` lets several calls share a case. */
export async function discover(ctx: CheckContext, cred: Cred, expectation = replyFor(ctx, cred), waitMs = WAIT_MS): Promise<Discovery> {
  const { auth, headers } = credentialHeaders(ctx, cred);
  const t0 = performance.now();
  const { value: r, heldMs } = await metered(() =>
    attempt(() =>
      withBound(ctx.signal, waitMs, (signal) =>
        ctx.gateway.send({ method: 'GET', path: DISCOVERY_PATH, auth, headers: [['anthropic-version', ANTHROPIC_VERSION], ...headers], caseToken: expectation.token, signal }),
      ),
    ),
  );
  if (r.ok) {
    const ms = r.value.endedAt - r.value.startedAt;
    return { cred, res: r.value, shape: shapeOf(r.value), ms, heldMs: Math.min(heldMs, ms), expectation };
  }
  // The check's own time limit is the runner's to report.
  if (ctx.signal.aborted) throw new GatewayTimeoutError(`GET ${DISCOVERY_PATH}: aborted at the check's time limit`);
  const failure = r.kind === 'timeout' ? `no answer within ${waitMs} ms` : `the connection failed (${r.code})`;
  return { cred, res: null, shape: null, failure, ms: performance.now() - t0, heldMs, expectation };
}

export interface ModelItem {
  id: string;
  display_name?: string;
}

/** The items of a model list body, or why it is not one. */
export function parseModelList(parsed: unknown): { ok: true; items: ModelItem[] } | { ok: false; why: string } {
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { ok: false, why: 'the body is not a JSON object' };
  const data = (parsed as Record<string, unknown>).data;
  if (!Array.isArray(data)) return { ok: false, why: 'the body has no `data` array' };
  const items: ModelItem[] = [];
  for (const [i, d] of data.entries()) {
    if (!d || typeof d !== 'object' || typeof (d as Record<string, unknown>).id !== 'string') return { ok: false, why: `data[${i}] has no string \`id\`` };
    const o = d as Record<string, unknown>;
    items.push(typeof o.display_name === 'string' ? { id: o.id as string, display_name: o.display_name } : { id: o.id as string });
  }
  return { ok: true, items };
}

/** What the client keeps of a list: ids that contain `claude` or `anthropic`, in any case (Claude Code 2.1.330: /(claude|anthropic)/i). */
export function keptByClient(items: ModelItem[]): { kept: ModelItem[]; ignored: string[] } {
  const keep = (id: string) => /claude|anthropic/i.test(id);
  return { kept: items.filter((m) => keep(m.id)), ignored: items.filter((m) => !keep(m.id)).map((m) => m.id) };
}

/** The recording upstream's own answer to a request it could not tie to a case. */
export function uncorrelated(d: Discovery): boolean {
  return !d.expectation.hits.length && !!d.res && d.res.status === 404 && d.res.text().includes('no check expects this request');
}

export const UNCORRELATED =
  'could not correlate: the gateway forwarded GET /v1/models without the x-gwc-case header, so the recording upstream could not tell which check it belonged to (see unmatchedRequests in the report); the query must stay limit=1000, so the token cannot travel in the URL';

/** The client's view of a discovery call, and what the upstream saw of it, for evidence. */
export function discoveryEvidence(d: Discovery, max = 800) {
  const seen: RecordedRequest | undefined = d.expectation.hits[0];
  return {
    credential: d.cred,
    ms: Math.round(d.ms),
    client: d.res ? { status: d.res.status, headers: maskHeaders(d.res.rawHeaders), body: cut(d.res.text(), max) } : d.failure,
    upstream: seen ? { method: seen.method, url: maskUrl(seen.url), headers: maskHeaders(seen.rawHeaders), hits: d.expectation.hits.length } : 'the upstream received no request for this case',
  };
}

/** One line of what a call got. */
export function describe(d: Discovery): string {
  return d.res && d.shape ? describeShape(d.shape, d.res.text()) : (d.failure ?? 'no answer');
}

/** The skip verdict for checks that need the upstream's list when the call could not be tied to its case. */
export function uncorrelatedSkip(d: Discovery): Verdict {
  return { ok: true, skip: true, message: UNCORRELATED, evidence: discoveryEvidence(d) };
}

export interface LatencyStats {
  n: number;
  min: number;
  p50: number;
  p95: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentiles (p50, p95) with min, max and mean, in whole milliseconds and tenths. */
export function latencyStats(ms: number[]): LatencyStats {
  if (!ms.length) throw new Error('latencyStats needs at least one value');
  const s = [...ms].sort((a, b) => a - b);
  const rank = (p: number) => s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)];
  const r = (v: number) => Math.round(v * 10) / 10;
  return { n: s.length, min: r(s[0]), p50: r(rank(50)), p95: r(rank(95)), max: r(s[s.length - 1]), mean: r(s.reduce((a, b) => a + b, 0) / s.length) };
}

/** An HTML page or a redirect that is a login: identity-provider words in the URL or page. */
export function loginSigns(d: Discovery): string[] {
  if (!d.res || !d.shape) return [];
  const signs: string[] = [];
  const text = d.res.text();
  const loginWords = /log[ -]?in|sign[ _-]?in|signin|oauth2?|openid|authorize|\bsso\b|saml|idp|keycloak|okta|auth0|dex/i;
  if (d.shape.status >= 300 && d.shape.status < 400) signs.push(`a ${d.shape.status} redirect${d.shape.location ? ` to ${d.shape.location}` : ''}${loginWords.test(d.shape.location ?? '') ? ' (a sign-in URL)' : ''}`);
  if (d.shape.html) signs.push(`an HTML page${loginWords.test(text) ? ' that asks to sign in' : ''}`);
  if (/<form[^>]*>[\s\S]*type=["']?password/i.test(text)) signs.push('a password form');
  return signs;
}
