// The apps profile's detection matrix: the clean reference apps gateway (on PGlite) passes
// every apps check, and each apps fault is caught by exactly the checks
// test/detection/apps.json names for it (and no other check). The runs share one IdP and one
// collector, and two of them, at once, show that neither saw the other's spans or keys.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppsSurroundings, SharedServers } from '../../mocks/apps/harness.js';
import { runAppsDemo } from '../../cli/main.js';
import { resolveConfig } from '../../src/config/config.js';
import { APPS_FAULTS } from '../../reference/apps/faults.js';
import { APPS_CHECKS } from '../../suites/apps/index.js';
import type { RunReport } from '../../src/report/shared/types.js';
import { runOf, startAtOnce } from '../helpers/at-once.js';
import { PglitePool } from '../helpers/pglite-pool.js';

const expected = JSON.parse(readFileSync(new URL('../detection/apps.json', import.meta.url), 'utf8')) as { faults: Record<string, Record<string, string>> };
// The reference refetches the IdP's keys at once on an unfamiliar kid: an allowance of 3 s (not
// the default 60 s a real gateway may need) still tells it from a gateway that never refetches.
const REFETCH_S = 3;
// One IdP and one collector for every run (started once here): each run has a realm of the IdP
// (its own issuer path, client secret, users, keys and sign-in script) and a tenant of the
// collector (its own address, records and mode), so no run sees another's sign-ins, keys or
// spans (test/apps/apps-shared.test.ts holds it of two realms and two tenants; PAIR below of whole runs).
const shared = new SharedServers();
// Each run's database is one an earlier run gave back, emptied and found as fresh as one from
// the template (or a new one from it): at most CONCURRENCY are opened (test/helpers/pglite-pool.ts).
const pool = new PglitePool();
/**
 * Two runs that start first, side by side, whose traffic on the shared servers would be mixed up
 * if isolation failed: the first gateway exports no span of its own, the second does (and never
 * fetches the IdP's keys again, while the first refetches them after its realm's key roll).
 * Their surroundings are kept for the test that reads them; the other runs' are dropped.
 */
const PAIR = ['apps-no-own-traces', 'apps-jwks-cached-forever'] as const;
const kept = new Map<string, { around: AppsSurroundings; from: number; to: number }>();
const start = async (fault?: string) => {
  const around = new AppsSurroundings({ shared });
  const from = performance.now();
  const r = await runAppsDemo(resolveConfig({ seed: '1', reporter: ['json'], profile: 'apps', jwksRefetchS: String(REFETCH_S) }, {}, {}), fault, () => {}, { around, openDb: () => pool.take() });
  if ((PAIR as readonly (string | undefined)[]).includes(fault)) kept.set(fault!, { around, from, to: performance.now() });
  return r;
};
/** The service.name of the reference apps gateway's own spans (reference/apps/telemetry.ts). */
const GATEWAY_SERVICE = 'gw-conformance-reference-apps-gateway';

// The runs go on at once, GWC_APPS_DETECTION_CONCURRENCY at a time (default 6), started in the
// order of the tests but PAIR first; each test awaits its own. Each run has its own gateway,
// database and upstreams (and realm and tenant of the shared servers), and no apps check judges
// time finer than seconds (span waits 5 s, requests 10 s), so runs beside each other overlap
// their waits. A run's set-up holds this process for up to seconds on a loaded machine (PGlite
// loading its template): the apps checks' bounds count the gateway's silence, not such holds
// (src/core/stall.ts; apps.disc.models's 3 s).
const CONCURRENCY = Number(process.env.GWC_APPS_DETECTION_CONCURRENCY ?? 6);
/** A test waits for its run, which waits for a free slot and then for its checks: long, but bounded (a loaded machine runs 13 of these beside other test files). */
const RUN_WAIT_MS = 300_000;
let runs = new Map<string | undefined, Promise<RunReport>>();
const run = (fault?: string) => runOf(runs, fault);

describe('apps detection matrix', () => {
  beforeAll(async () => {
    await shared.start();
    const order = [...PAIR, undefined, ...APPS_FAULTS.map((f) => f.name).filter((f) => !(PAIR as readonly string[]).includes(f))];
    runs = startAtOnce(order.map((f) => [f, () => start(f)]), CONCURRENCY);
  });
  // A run a failed test left going ends (bounded by its own time limits) before the servers stop.
  afterAll(async () => {
    await Promise.allSettled(runs.values());
    await shared.stop();
    await pool.close();
  }, RUN_WAIT_MS);

  it('the clean reference apps gateway passes every apps check', async () => {
    const r = await run();
    expect(r.results.map((x) => x.id).sort()).toEqual(APPS_CHECKS.map((c) => c.id).sort());
    expect(r.results.filter((x) => x.outcome !== 'pass').map((x) => `${x.id}: ${x.outcome}: ${x.message}`)).toEqual([]);
    expect(r.exitCode).toBe(0);
  }, RUN_WAIT_MS);

  // With one run at a time the pair does not overlap, and this says nothing: skipped.
  it.skipIf(CONCURRENCY < 2)('two runs at once on the shared IdP and collector see only their own spans and keys', async () => {
    await Promise.all(PAIR.map((f) => run(f)));
    const [quiet, loud] = PAIR.map((f) => kept.get(f)!);
    expect(quiet.from < loud.to && loud.from < quiet.to, 'the two runs overlapped').toBe(true);
    // A collector that mixed the tenants up would show the loud gateway's spans among the quiet one's.
    const own = (s: { resource: Record<string, unknown> }) => s.resource['service.name'] === GATEWAY_SERVICE;
    expect(quiet.around.collector.spans.filter(own).map((s) => s.name)).toEqual([]);
    expect(loud.around.collector.spans.filter(own).length).toBeGreaterThan(0);
    // Each realm had keys of its own: none published by both, each on a key of its own at the end.
    const kids = (a: AppsSurroundings) => a.idp.jwks().keys.map((k) => String(k.kid));
    expect(kids(quiet.around).filter((k) => kids(loud.around).includes(k))).toEqual([]);
    expect(quiet.around.idp.currentKid).not.toBe(loud.around.idp.currentKid);
    expect(quiet.around.idp.issuer).not.toBe(loud.around.idp.issuer);
  }, RUN_WAIT_MS);

  it('names every apps fault, and every apps check is proven by a fault', () => {
    expect(Object.keys(expected.faults).sort()).toEqual(APPS_FAULTS.map((f) => f.name).sort());
    const proven = new Set(Object.values(expected.faults).flatMap((o) => Object.keys(o)));
    expect(APPS_CHECKS.map((c) => c.id).filter((id) => !proven.has(id))).toEqual([]);
  });

  for (const f of APPS_FAULTS) {
    it(`fault ${f.name} fails exactly its expected checks`, async () => {
      const r = await run(f.name);
      const got = Object.fromEntries(r.results.filter((x) => x.outcome !== 'pass').map((x) => [x.id, x.outcome]));
      const why = r.results.filter((x) => x.outcome !== 'pass').map((x) => `${x.id}: ${x.outcome}: ${x.message}`).join('\n');
      expect(got, why).toEqual(expected.faults[f.name]);
      // A gateway that never refetches the IdP's keys is judged after the refetch allowance (REFETCH_S).
    }, RUN_WAIT_MS + REFETCH_S * 1000);
  }

  it('opened at most one database per run going on at once and handed each on; every run took its realm off the IdP', async () => {
    await Promise.allSettled(runs.values());
    expect(pool.counts.opened).toBeLessThanOrEqual(CONCURRENCY);
    expect(pool.counts.opened + pool.counts.reused).toBe(runs.size);
    expect(shared.idp.open).toBe(0);
  }, RUN_WAIT_MS);
});
