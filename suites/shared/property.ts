// Body properties over fixed fixtures and generated bodies, on any protocol: fast-check
// shrinks a failure to a minimal body and the report gets it with the seed and path that
// replay it. The semantic judge (MSG-BODY-1, NAT-BODY-1, CHAT-BODY-1) lives here too.
import fc from 'fast-check';
import type { CheckContext, Verdict } from '../../src/check/check.js';
import { compareJsonText, describeDiff } from '../../src/core/json-diff.js';
import { exchangeEvidence } from './evidence.js';
import { GatewayTimeoutError, GatewayTransportError } from '../../src/client/gateway.js';
import { exchange, isExplicitRefusal, notForwarded, type Exchange, type SendOptions } from './exchange.js';

export interface PropertyOutcome {
  ok: boolean;
  runs: number;
  refused: number;
  seed: number;
  path?: string;
  counterexample?: string;
  failure?: Verdict;
  /** Requests that got no answer (connection failed after the client's one retry on a fresh connection, or time-out): no body verdict rests on them. */
  transport?: Array<GatewayTransportError | GatewayTimeoutError>;
}

/** Runs an async property over generated bodies through the gateway. */
export async function checkProperty<T>(
  ctx: CheckContext,
  arb: fc.Arbitrary<T>,
  render: (v: T) => string,
  judge: (x: Exchange) => Verdict | 'refused',
  send: SendOptions | ((v: T) => SendOptions) = {},
): Promise<PropertyOutcome> {
  const failures = new Map<string, Verdict>();
  const transport: Array<GatewayTransportError | GatewayTimeoutError> = [];
  let refused = 0;
  const running = new Set<Promise<boolean>>();
  const details = await fc.check(
    fc.asyncProperty(arb, (v) => {
      const run = judgeOne(v);
      running.add(run);
      run.then(() => running.delete(run), () => running.delete(run));
      return run;
    }),
    { seed: ctx.settings.seed, numRuns: ctx.settings.numRuns, endOnFailure: false, interruptAfterTimeLimit: Math.floor(ctx.settings.timeoutMs * 0.8), markInterruptAsFailure: false },
  );
  // At its time limit fast-check stops waiting for the body under way, whose request still goes
  // on: wait for it to end, so that it reaches the upstream while its case is open and is not
  // taken for a late request or a gateway's retry. It ends within the client's answer bound
  // (PROPERTY_TIME_LIMIT says how long that can be); a wait cut at a tenth of the limit left a
  // body under way past its case on a loaded machine.
  if (running.size) await Promise.allSettled([...running]);
  return outcome(details, failures, transport, refused, render);

  async function judgeOne(v: T): Promise<boolean> {
    // A connection that failed says nothing about the body: it is not a counterexample (and
    // not shrunk); the check reports it as the connection verdict it is.
    let x: Exchange;
    try {
      x = await exchange(ctx, render(v), typeof send === 'function' ? send(v) : send);
    } catch (e) {
      if (!(e instanceof GatewayTransportError || e instanceof GatewayTimeoutError)) throw e;
      transport.push(e);
      return true;
    }
    const verdict = judge(x);
    if (verdict === 'refused') {
      refused++;
      return true;
    }
    if (!verdict.ok) failures.set(render(v), verdict);
    return verdict.ok;
  }
}

/**
 * The time limit of a check that runs a property: fast-check stops starting bodies at 0.8 of the
 * run's per-check limit T, and the body under way then ends within the client's answer bound (T),
 * once more on a fresh connection after a failed one (T): 2.8 T at the most, 3 T with the verdict's
 * own time. On a gateway that answers, a property check still ends near 0.8 T.
 */
export const PROPERTY_TIME_LIMIT = (s: { timeoutMs: number }): number => 3 * s.timeoutMs;

/** What a finished fc.check says, as a PropertyOutcome. */
function outcome<T>(details: fc.RunDetails<[T]>, failures: Map<string, Verdict>, transport: Array<GatewayTransportError | GatewayTimeoutError>, refused: number, render: (v: T) => string): PropertyOutcome {
  if (!details.failed) {
    // Every body judged held, but some requests never got an answer to judge: the connection verdict.
    if (transport.length) throw connectionFailed(transport, details.numRuns);
    return { ok: true, runs: details.numRuns, refused, seed: details.seed };
  }
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
    ...(transport.length ? { transport } : {}),
  };
}

/** The first connection failure, saying how many generated bodies' requests failed so (the runner reports it as the connection verdict). */
function connectionFailed(transport: Array<GatewayTransportError | GatewayTimeoutError>, runs: number): Error {
  const first = transport[0];
  if (first instanceof GatewayTimeoutError) return first;
  return new GatewayTransportError(`${first.message} (the connection failed on ${transport.length} of ${runs} generated bodies, after a retry on a fresh connection; no body was judged on them)`, first.code);
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
    evidence: { seed: p.seed, path: p.path, runs: p.runs, counterexample: p.counterexample, failure: p.failure?.evidence, ...(p.transport ? { connectionFailures: p.transport.map((e) => e.message) } : {}) },
  };
}

/** A generated body, alone (sent as the property's `send` says) or with how to send it (e.g. to a streaming path). */
export type GeneratedRequest = string | { body: string; send: SendOptions };

/**
 * A body property over the fixed fixtures and then generated bodies. Both always run, so a
 * failure shows the fixture that broke and the shrunk generated counterexample.
 */
export async function fixturesAndProperty(
  ctx: CheckContext,
  fixtures: Array<{ name: string; text: string }>,
  judge: (x: Exchange) => Verdict | 'refused',
  what: string,
  generated: { bodies: fc.Arbitrary<GeneratedRequest>; send?: SendOptions },
): Promise<Verdict> {
  const broken: Array<{ fixture: string; verdict: Verdict }> = [];
  for (const f of fixtures) {
    const v = judge(await exchange(ctx, f.text, generated.send));
    if (v !== 'refused' && !v.ok) broken.push({ fixture: f.name, verdict: v });
  }
  const render = (r: GeneratedRequest) => (typeof r === 'string' ? r : r.body);
  const sendOf = (r: GeneratedRequest) => (typeof r === 'string' ? (generated.send ?? {}) : r.send);
  const p = propertyVerdict(await checkProperty(ctx, generated.bodies, render, judge, sendOf), what);
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

/** Semantic equality (lossless numbers, key order kept) of what was sent and what arrived. */
export function judgeSemantic(x: Exchange): Verdict | 'refused' {
  if (!x.seen) return isExplicitRefusal(x) ? 'refused' : notForwarded(x);
  const c = compareJsonText(x.sent, x.seen.body.toString('utf8'));
  if (c.parseError) return { ok: false, message: `the upstream received a body that is not JSON: ${c.parseError}`, evidence: exchangeEvidence(x) };
  if (c.equal) return { ok: true, message: 'body arrived semantically unchanged' };
  return {
    ok: false,
    message: `the body changed on the way: ${describeDiff(c.diffs[0])}${c.diffs.length > 1 ? ` (+${c.diffs.length - 1} more)` : ''}`,
    expected: 'the body as sent (same keys, key order, values, array order and length)',
    actual: c.diffs.map(describeDiff).join('\n'),
    evidence: { diffs: c.diffs, ...exchangeEvidence(x) },
  };
}
