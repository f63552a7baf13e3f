// What the client profile's checks share: the fixture the profile hands them (each real
// client's straight run and its run through the gateway) and the verdict they build from the
// differences, client by client.
import { fail, pass, type CheckContext, type Verdict } from '../../src/check/check.js';
import type { Difference } from '../../src/real-clients/straight-vs-gateway.js';
import type { ClientFixture, ClientPair } from '../../src/real-clients/session.js';

/** The most differences kept per client in a report. */
const KEEP = 20;

export function fixtureOf(ctx: CheckContext): ClientFixture | null {
  const f = ctx.fixture as ClientFixture | undefined;
  return f && Array.isArray(f.pairs) ? f : null;
}

/** One verdict over every client: passes when no client shows a difference. */
export function verdictOver(ctx: CheckContext, what: string, diff: (p: ClientPair) => { differences: Difference[]; extra?: Record<string, unknown> }): Verdict {
  const f = fixtureOf(ctx);
  if (!f || !f.pairs.length) return { ok: true, skip: true, message: 'no real client ran (the client profile runs them: --profile client)' };
  const perClient: Record<string, unknown> = {};
  const broken: string[] = [];
  let first: Difference | undefined;
  for (const p of f.pairs) {
    const { differences, extra } = diff(p);
    perClient[`${p.client} ${p.version}`] = { differences: differences.slice(0, KEEP), ...(differences.length > KEEP ? { more: differences.length - KEEP } : {}), ...extra };
    for (const d of differences.slice(0, 5)) ctx.log(`${p.client}: ${d.what}: ${d.diff}`);
    if (differences.length) {
      broken.push(`${p.client} (${differences.length})`);
      first ??= differences[0];
    }
  }
  const evidence = { network: f.network, clients: perClient };
  if (!first) return pass(`${f.pairs.map((p) => p.client).join(', ')}: ${what} through the gateway as straight`, evidence);
  return fail(`${what} differ through the gateway: ${broken.join(', ')}; first: ${first.what}: ${first.diff}`, { expected: first.straight, actual: first.gateway, evidence });
}
