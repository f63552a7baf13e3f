// What the client profile's checks share: the fixture the profile hands them (each real
// client's straight run and its run through the gateway) and the verdict they build from the
// differences, client by client. A client whose straight run sent the upstream no request did
// not run as the profile means it to (a credential it could not do without, a program that
// failed to start): there is no reference to hold the gateway run to, so its pair is not judged,
// and a verdict over no judged pair says it could not judge instead of passing or failing on what
// two failed starts printed. (Requests straight and none through the gateway is the gateway's
// doing, and judged.)
import { fail, pass, type CheckContext, type Verdict } from '../../src/check/check.js';
import type { Difference } from '../../src/real-clients/straight-vs-gateway.js';
import type { ClientFixture, ClientPair } from '../../src/real-clients/session.js';

/** The most differences kept per client in a report. */
const KEEP = 20;

export function fixtureOf(ctx: CheckContext): ClientFixture | null {
  const f = ctx.fixture as ClientFixture | undefined;
  return f && Array.isArray(f.pairs) ? f : null;
}

/** Why a pair cannot be judged: its straight run sent the upstream no request; null when it can. */
export function unjudged(p: ClientPair): string | null {
  if (p.straight.requests.length) return null;
  return `${p.client} sent the upstream no request straight (exit ${p.straight.exit.code}; ${p.gateway.requests.length} through the gateway): it did not run, so there is nothing to hold the gateway run to (a client that needs a credential fails before its first request under --no-token)`;
}

/** One verdict over every client: passes when no client shows a difference; clients that sent no request are not judged. */
export function verdictOver(ctx: CheckContext, what: string, diff: (p: ClientPair) => { differences: Difference[]; extra?: Record<string, unknown> }): Verdict {
  const f = fixtureOf(ctx);
  if (!f || !f.pairs.length) return { ok: true, skip: true, message: 'no real client ran (the client profile runs them: --profile client)' };
  const notJudged = f.pairs.map(unjudged).filter((w): w is string => w !== null);
  const judged = f.pairs.filter((p) => unjudged(p) === null);
  if (!judged.length) return { ok: true, skip: true, message: `could not judge: ${notJudged.join('; ')}`, evidence: { network: f.network, notJudged } };
  const perClient: Record<string, unknown> = {};
  const broken: string[] = [];
  let first: Difference | undefined;
  for (const p of judged) {
    const { differences, extra } = diff(p);
    perClient[`${p.client} ${p.version}`] = { differences: differences.slice(0, KEEP), ...(differences.length > KEEP ? { more: differences.length - KEEP } : {}), ...extra };
    for (const d of differences.slice(0, 5)) ctx.log(`${p.client}: ${d.what}: ${d.diff}`);
    if (differences.length) {
      broken.push(`${p.client} (${differences.length})`);
      first ??= differences[0];
    }
  }
  const evidence = { network: f.network, clients: perClient, ...(notJudged.length ? { notJudged } : {}) };
  const besides = notJudged.length ? ` (not judged: ${notJudged.join('; ')})` : '';
  if (!first) return pass(`${judged.map((p) => p.client).join(', ')}: ${what} through the gateway as straight${besides}`, evidence);
  return fail(`${what} differ through the gateway: ${broken.join(', ')}; first: ${first.what}: ${first.diff}${besides}`, { expected: first.straight, actual: first.gateway, evidence });
}
