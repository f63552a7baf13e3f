// Shared steps of the messages checks: send one request through the gateway with a scripted
// upstream reply, and collect both sides of the exchange.
import fc from 'fast-check';
import type { CheckContext, Evidence, Verdict } from '../../src/core/check.js';
import type { GwRequest, GwResponse } from '../../src/client/gateway.js';
import type { RecordedRequest } from '../../mocks/upstream/record.js';
import type { Expectation } from '../../mocks/upstream/server.js';
import { messageBody } from '../../mocks/upstream/messages.js';
import { maskHeaders } from '../../src/core/mask.js';
import { bodyText, CASE_PLACEHOLDER, messagesBody } from './gen.js';
import { at, stringifyNode, tryParse, type JNode } from '../../src/core/json.js';
import { diffJson, type JsonDiff } from '../../src/core/compare.js';

export interface Exchange {
  sent: string;
  res: GwResponse;
  seen: RecordedRequest | null;
  expectation: Expectation;
}

export interface SendOptions extends Omit<GwRequest, 'path' | 'body' | 'caseToken'> {
  query?: string;
  version?: string | null;
  /** The upstream's reply; a normal 200 message by default. */
  reply?: (ctx: CheckContext) => Expectation;
  /**
   * Another protocol's endpoint instead of /v1/messages (native, chat): a POST to `path` (with
   * its query) carrying `content-type: application/json` and these headers, no anthropic-version.
   */
  endpoint?: { path: string; headers?: Array<[string, string]> };
}

/** Sends `body` (with its case placeholder replaced by a fresh token) as a messages request, or to `opts.endpoint`. */
export async function exchange(ctx: CheckContext, body: string, opts: SendOptions = {}): Promise<Exchange> {
  const expectation = opts.reply ? opts.reply(ctx) : ctx.upstream.next().json(messageBody());
  const sent = body.includes(CASE_PLACEHOLDER) ? body.split(CASE_PLACEHOLDER).join(expectation.token) : body;
  const res = opts.endpoint
    ? await ctx.gateway.send({
        ...opts,
        method: 'POST',
        path: opts.endpoint.path,
        body: sent,
        headers: [['content-type', 'application/json'], ...(opts.endpoint.headers ?? []), ...(opts.headers ?? [])],
        caseToken: expectation.token,
        signal: ctx.signal,
      })
    : await ctx.gateway.messages(sent, { ...opts, caseToken: expectation.token, signal: ctx.signal });
  const seen = await expectation.received(res.status < 300 ? 1000 : 200);
  return { sent, res, seen, expectation };
}

/** Evidence of one exchange, credentials masked, bodies cut to a readable size. */
export function exchangeEvidence(x: Exchange, max = 2000): Evidence {
  const cut = (t: string) => (t.length > max ? `${t.slice(0, max)}... (${t.length} bytes)` : t);
  return {
    client: { status: x.res.status, contentType: x.res.header('content-type') ?? null, body: cut(x.res.text()) },
    upstream: x.seen
      ? { method: x.seen.method, url: x.seen.url, headers: maskHeaders(x.seen.rawHeaders), body: cut(x.seen.body.toString('utf8')), matchedBy: x.seen.matchedBy }
      : 'the upstream received no request for this case',
  };
}

export const notForwarded = (x: Exchange): Verdict => ({
  ok: false,
  message: `the request never reached the upstream (the gateway answered ${x.res.status})`,
  expected: 'the request forwarded to the upstream',
  actual: `gateway status ${x.res.status}, no upstream request`,
  evidence: exchangeEvidence(x),
});

/** A refusal that names its reason in a JSON error body (allowed by MSG-BODY-3). */
export function isExplicitRefusal(x: Exchange): boolean {
  if (x.seen || x.res.status < 400 || x.res.status >= 500) return false;
  const p = tryParse(x.res.text());
  return p.ok && p.node.t === 'obj' && p.node.entries.some(([k]) => k === 'error');
}

export function parseSeen(x: Exchange): JNode | null {
  if (!x.seen) return null;
  const p = tryParse(x.seen.body.toString('utf8'));
  return p.ok ? p.node : null;
}

export interface PropertyOutcome {
  ok: boolean;
  runs: number;
  refused: number;
  seed: number;
  path?: string;
  counterexample?: string;
  failure?: Verdict;
}

/**
 * Runs an async property over generated bodies through the gateway. On failure fast-check
 * shrinks to a minimal body; the report gets it with the seed and path that replay it.
 */
export async function checkProperty<T>(
  ctx: CheckContext,
  arb: fc.Arbitrary<T>,
  render: (v: T) => string,
  judge: (x: Exchange) => Verdict | 'refused',
  send: SendOptions = {},
): Promise<PropertyOutcome> {
  const failures = new Map<string, Verdict>();
  let refused = 0;
  const details = await fc.check(
    fc.asyncProperty(arb, async (v) => {
      const x = await exchange(ctx, render(v), send);
      const verdict = judge(x);
      if (verdict === 'refused') {
        refused++;
        return true;
      }
      if (!verdict.ok) failures.set(render(v), verdict);
      return verdict.ok;
    }),
    { seed: ctx.settings.seed, numRuns: ctx.settings.numRuns, endOnFailure: false, interruptAfterTimeLimit: Math.floor(ctx.settings.timeoutMs * 0.8), markInterruptAsFailure: false },
  );
  if (!details.failed) return { ok: true, runs: details.numRuns, refused, seed: details.seed };
  if (details.errorInstance && !details.counterexample) throw details.errorInstance;
  const ce = details.counterexample ? render(details.counterexample[0] as T) : undefined;
  return {
    ok: false,
    runs: details.numRuns,
    refused,
    seed: details.seed,
    path: details.counterexamplePath ?? undefined,
    counterexample: ce,
    failure: ce ? failures.get(ce) : undefined,
  };
}

/** The verdict of a property: its shrunk counterexample, seed and path when it failed. */
export function propertyVerdict(p: PropertyOutcome, what: string): Verdict {
  const reproduce = `--seed ${p.seed}`;
  if (p.ok) return { ok: true, message: `${what} held for ${p.runs} generated bodies${p.refused ? ` (${p.refused} refused with an explicit JSON error)` : ''} (${reproduce})`, evidence: { seed: p.seed, runs: p.runs, refused: p.refused } };
  return {
    ok: false,
    message: `${what} broke on a generated body (shrunk to a minimal counterexample; replay with ${reproduce}): ${p.failure?.message ?? 'see evidence'}`,
    expected: p.failure?.expected,
    actual: p.failure?.actual,
    evidence: { seed: p.seed, path: p.path, runs: p.runs, counterexample: p.counterexample, failure: p.failure?.evidence },
  };
}

/**
 * Compares the subtree at `pointer` of the sent body with what the upstream received.
 * Object key order is left to MSG-BODY-1 unless `keyOrder` is set.
 */
export function compareAt(x: Exchange, pointer: string, keyOrder = false): { ok: boolean; diffs: JsonDiff[] } {
  const sent = tryParse(x.sent);
  const seen = parseSeen(x);
  if (!sent.ok) throw new Error('harness bug: sent body is not JSON');
  const e = at(sent.node, pointer);
  const a = seen ? at(seen, pointer) : undefined;
  if (!e && !a) return { ok: true, diffs: [] };
  if (!e || !a) return { ok: false, diffs: [{ path: pointer, kind: e ? 'removed' : 'added', expected: e && stringifyNode(e), actual: a && stringifyNode(a) }] };
  const diffs = diffJson(e, a, pointer, [], { keyOrder });
  return { ok: diffs.length === 0, diffs };
}

function sameIgnoringKey(a: JNode, b: JNode, key: string): boolean {
  if (a.t !== 'obj' || b.t !== 'obj') return false;
  const strip = (n: JNode): JNode => ({ t: 'obj', entries: (n as Extract<JNode, { t: 'obj' }>).entries.filter(([k]) => k !== key) });
  return diffJson(strip(a), strip(b), '', [], { keyOrder: false, limit: 1 }).length === 0;
}

function findObject(n: JNode, match: (o: JNode) => boolean, path = ''): { node: JNode; path: string } | null {
  if (n.t === 'obj' && match(n)) return { node: n, path };
  const kids: Array<[string, JNode]> = n.t === 'obj' ? n.entries : n.t === 'arr' ? n.items.map((v, i) => [String(i), v]) : [];
  for (const [k, v] of kids) {
    const f = findObject(v, match, `${path}/${k}`);
    if (f) return f;
  }
  return null;
}

/**
 * Checks the field at `pointer` (e.g. /system/1/cache_control) by finding the object that
 * held it in the received body, at the same place or, if blocks were shifted, wherever an
 * object with the same other fields stands. Reports "removed" only when the field is gone.
 */
export function compareField(x: Exchange, pointer: string): { ok: boolean; diffs: JsonDiff[]; movedTo?: string } {
  const sent = tryParse(x.sent);
  const seen = parseSeen(x);
  if (!sent.ok) throw new Error('harness bug: sent body is not JSON');
  const cut = pointer.lastIndexOf('/');
  const parentPtr = pointer.slice(0, cut);
  const key = pointer.slice(cut + 1);
  const parent = at(sent.node, parentPtr);
  const value = at(sent.node, pointer);
  if (!parent || !value) throw new Error(`harness bug: nothing sent at ${pointer}`);
  if (!seen) return { ok: false, diffs: [{ path: pointer, kind: 'removed', expected: stringifyNode(value) }] };
  const same = at(seen, parentPtr);
  const holder = same && sameIgnoringKey(parent, same, key) ? { node: same, path: parentPtr } : findObject(seen, (o) => sameIgnoringKey(parent, o, key));
  const got = holder ? at(holder.node, `/${key}`) : at(seen, pointer);
  const where = holder ? `${holder.path}/${key}` : pointer;
  if (!got) return { ok: false, diffs: [{ path: pointer, kind: 'removed', expected: stringifyNode(value) }] };
  const diffs = diffJson(value, got, where, [], { keyOrder: false });
  return { ok: diffs.length === 0, diffs, movedTo: where !== pointer ? where : undefined };
}

/** Builds a body whose first user message carries the case placeholder. */
export function body(fields: Record<string, unknown>, firstText = 'hello'): string {
  const { messages, ...rest } = fields;
  return JSON.stringify({
    model: 'claude-sonnet-4-5-20250929',
    max_tokens: 1024,
    messages: (messages as unknown[] | undefined) ?? [{ role: 'user', content: `${CASE_PLACEHOLDER} ${firstText}` }],
    ...rest,
  });
}

/** Differences between the reply the upstream sent and the body the client got, at `pointer`. */
export function responseDiffs(x: Exchange, pointer = ''): { diffs: JsonDiff[]; parseError?: string } {
  const reply = x.expectation.reply;
  if (reply.kind !== 'json') throw new Error('harness bug: responseDiffs needs a JSON reply');
  const want = tryParse(reply.body);
  const got = tryParse(x.res.text());
  if (!want.ok) throw new Error('harness bug: scripted reply is not JSON');
  if (!got.ok) return { diffs: [], parseError: got.error };
  const e = at(want.node, pointer);
  const a = at(got.node, pointer);
  if (!e) throw new Error(`harness bug: scripted reply has nothing at ${pointer}`);
  if (!a) return { diffs: [{ path: pointer, kind: 'removed', expected: stringifyNode(e) }] };
  return { diffs: diffJson(e, a, pointer) };
}

/**
 * A body property over the fixed fixtures and then generated bodies. Both always run, so a
 * failure shows the fixture that broke and the shrunk generated counterexample. Messages
 * bodies by default; another protocol passes its generated body texts and how to send them.
 */
export async function fixturesAndProperty(
  ctx: CheckContext,
  fixtures: Array<{ name: string; text: string }>,
  judge: (x: Exchange) => Verdict | 'refused',
  what: string,
  other: { bodies: fc.Arbitrary<string>; send: SendOptions } | null = null,
): Promise<Verdict> {
  const broken: Array<{ fixture: string; verdict: Verdict }> = [];
  for (const f of fixtures) {
    const v = judge(await exchange(ctx, f.text, other?.send));
    if (v !== 'refused' && !v.ok) broken.push({ fixture: f.name, verdict: v });
  }
  const outcome = other ? await checkProperty(ctx, other.bodies, (t) => t, judge, other.send) : await checkProperty(ctx, messagesBody, bodyText, judge);
  const p = propertyVerdict(outcome, what);
  if (!broken.length) return p;
  const first = broken[0];
  const fixtureEvidence = broken.map((b) => ({ fixture: b.fixture, message: b.verdict.message, evidence: b.verdict.evidence }));
  return {
    ok: false,
    message: `${what} broke on ${broken.length} of ${fixtures.length} fixtures (first: ${first.fixture}: ${first.verdict.message})${p.ok ? `; generated bodies: ${p.message}` : '; and on generated bodies'}`,
    expected: first.verdict.expected,
    actual: first.verdict.actual,
    evidence: { fixtures: fixtureEvidence, property: p.ok ? p.message : { message: p.message, expected: p.expected, actual: p.actual, ...p.evidence } },
  };
}
