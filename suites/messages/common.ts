// Shared steps of the messages checks: send one request through the gateway with a scripted
// upstream reply, and collect both sides of the exchange.
import fc from 'fast-check';
import type { CheckContext, Evidence, Verdict } from '../../src/core/check.js';
import type { GwRequest, GwResponse } from '../../src/client/gateway.js';
import type { RecordedRequest } from '../../mocks/upstream/record.js';
import type { Expectation } from '../../mocks/upstream/server.js';
import { messageBody } from '../../mocks/upstream/messages.js';
import { maskHeaders } from '../../src/core/mask.js';
import { CASE_PLACEHOLDER } from './gen.js';
import { at, stringifyNode, tryParse, type JNode } from '../../src/core/json.js';
import { diffJson } from '../../src/core/compare.js';

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
}

/** Sends `body` (with its case placeholder replaced by a fresh token) as a messages request. */
export async function exchange(ctx: CheckContext, body: string, opts: SendOptions = {}): Promise<Exchange> {
  const expectation = opts.reply ? opts.reply(ctx) : ctx.upstream.next().json(messageBody());
  const sent = body.includes(CASE_PLACEHOLDER) ? body.split(CASE_PLACEHOLDER).join(expectation.token) : body;
  const res = await ctx.gateway.messages(sent, { ...opts, caseToken: expectation.token, signal: ctx.signal });
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
): Promise<PropertyOutcome> {
  const failures = new Map<string, Verdict>();
  let refused = 0;
  const details = await fc.check(
    fc.asyncProperty(arb, async (v) => {
      const x = await exchange(ctx, render(v));
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

/** Compares the subtree at `pointer` of the sent body with what the upstream received. */
export function compareAt(x: Exchange, pointer: string): { ok: boolean; diffs: import('../../src/core/compare.js').JsonDiff[] } {
  const sent = tryParse(x.sent);
  const seen = parseSeen(x);
  if (!sent.ok) throw new Error('harness bug: sent body is not JSON');
  const e = at(sent.node, pointer);
  const a = seen ? at(seen, pointer) : undefined;
  if (!e && !a) return { ok: true, diffs: [] };
  if (!e || !a) return { ok: false, diffs: [{ path: pointer, kind: e ? 'removed' : 'added', expected: e && stringifyNode(e), actual: a && stringifyNode(a) }] };
  const diffs = diffJson(e, a, pointer);
  return { ok: diffs.length === 0, diffs };
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
export function responseDiffs(x: Exchange, pointer = ''): { diffs: import('../../src/core/compare.js').JsonDiff[]; parseError?: string } {
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
