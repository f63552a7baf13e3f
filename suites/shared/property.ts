// Body properties over fixed fixtures and generated bodies, on any protocol: fast-check
// shrinks a failure to a minimal body and the report gets it with the seed and path that
// replay it. The semantic judge (MSG-BODY-1, NAT-BODY-1, CHAT-BODY-1) lives here too.
import fc from 'fast-check';
import type { CheckContext, Verdict } from '../../src/check/check.js';
import { compareJsonText, describeDiff } from '../../src/core/json-diff.js';
import { exchangeEvidence } from './evidence.js';
import { GatewayTimeoutError, GatewayTransportError } from '../../src/client/gateway.js';
import { patientTimeout } from '../../src/core/stall.js';
import { exchange, isExplicitRefusal, notForwarded, type Exchange, type SendOptions } from './exchange.js';

export interface PropertyOutcome {
  ok: boolean;
  runs: number;
  refused: number;
  /** Generated bodies not sent: the property's time came first (checkProperty). */
  unsent: number;
  seed: number;
  path?: string;
  counterexample?: string;
  failure?: Verdict;
  /** Requests that got no answer (connection failed after the client's one retry on a fresh connection, or time-out): no body verdict rests on them. */
  transport?: Array<GatewayTransportError | GatewayTimeoutError>;
}

/**
 * Runs an async property over generated bodies through the gateway. Bodies stop being sent once
 * 0.8 of the run's per-check limit T has passed in the gateway's time: this process's own holds
 * (other checks' work, a loaded machine) are not counted (patientTimeout, which lets them put the
 * stop off by at most as much again). Counted on the wall clock, as fast-check's own time limit
 * does, a property on a loaded machine judged fewer bodies than on a quiet one (the messages body
 * check took 14.3 s of its 16 s on the reference beside six CPU hogs, 2.8 s quiet), so its verdict
 * and the run's transcript depended on the load. The verdict says how many bodies were sent.
 */
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
  let sent = 0;
  let overdue = false;
  let stopped = false;
  const stopSending = patientTimeout(() => (overdue = true), Math.floor(ctx.settings.timeoutMs * 0.8));
  try {
    // fast-check runs one body at a time and waits for each: the body under way when the stop
    // comes still ends within its case (it is not taken for a late request or a gateway's retry).
    const details = await fc.check(
      fc.asyncProperty(arb, async (v) => {
        if (!overdue) return judgeOne(v);
        // Past the stop while shrinking a failure: the smallest body found so far stands. Before
        // any failure: the run ends here (STOP is no counterexample; outcome knows it), and the
        // shrinking fast-check then tries ends at once (every smaller body "holds").
        if (failures.size || stopped) return true;
        stopped = true;
        throw STOP;
      }),
      { seed: ctx.settings.seed, numRuns: ctx.settings.numRuns, endOnFailure: false },
    );
    return outcome(details, failures, transport, refused, { sent, asked: ctx.settings.numRuns }, render);
  } finally {
    stopSending();
  }

  async function judgeOne(v: T): Promise<boolean> {
    // A connection that failed says nothing about the body: it is not a counterexample (and
    // not shrunk); the check reports it as the connection verdict it is.
    let x: Exchange;
    sent++;
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
 * The time limit of a check that runs a property: bodies stop being sent at 0.8 of the run's
 * per-check limit T of the gateway's time (1.6 T at the most with this process's holds), and the
 * body under way then ends within the client's answer bound (T), once more on a fresh connection
 * after a failed one (T): 2.8 T of the gateway's time at the most, 3 T with the verdict's own time.
 * The runner's limit is patient the same way. On a gateway that answers, a property check still
 * ends near 0.8 T.
 */
export const PROPERTY_TIME_LIMIT = (s: { timeoutMs: number }): number => 3 * s.timeoutMs;

/** What checkProperty throws to end fast-check's run at the property's stop (fast-check has no other way to end a run early). */
const STOP = new Error('the property\'s time ran out: no more bodies are sent');

/** What a finished fc.check says, as a PropertyOutcome. */
function outcome<T>(details: fc.RunDetails<[T]>, failures: Map<string, Verdict>, transport: Array<GatewayTransportError | GatewayTimeoutError>, refused: number, n: { sent: number; asked: number }, render: (v: T) => string): PropertyOutcome {
  const stopped = details.failed && details.errorInstance === STOP;
  // A stopped run sent `sent` bodies; a failed one counts its shrinking too, as fast-check does.
  const runs = stopped ? n.sent : details.numRuns;
  const unsent = stopped ? n.asked - n.sent : 0;
  if (!details.failed || stopped) {
    // Every body judged held, but some requests never got an answer to judge: the connection verdict.
    if (transport.length) throw connectionFailed(transport, runs);
    return { ok: true, runs, unsent, refused, seed: details.seed };
  }
  if (details.errorInstance && !details.counterexample) throw details.errorInstance;
  const ce = details.counterexample ? render(details.counterexample[0] as T) : undefined;
  return {
    ok: false,
    runs,
    unsent,
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
  const unsent = p.unsent ? `; ${p.unsent} more generated and not sent: the check's time (0.8 of --timeout-ms, this process's holds not counted) ran out first` : '';
  if (p.ok) return { ok: true, message: `${what} held for ${p.runs} generated bodies${p.refused ? ` (${p.refused} refused with an explicit JSON error)` : ''}${unsent} (${reproduce})`, evidence: { seed: p.seed, runs: p.runs, refused: p.refused, unsent: p.unsent } };
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
