// The apps profile's detection matrix: the clean reference apps gateway (on PGlite) passes
// every apps check, and each apps fault is caught by exactly the checks
// test/detection/apps.json names for it (and no other check).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { runAppsDemo } from '../src/cli.js';
import { resolveConfig } from '../src/config/config.js';
import { APPS_FAULTS } from '../reference/apps/faults.js';
import { APPS_CHECKS } from '../suites/apps/index.js';
import type { RunReport } from '../src/report/types.js';
import { runOf, startAtOnce } from './helpers/at-once.js';

const expected = JSON.parse(readFileSync(new URL('./detection/apps.json', import.meta.url), 'utf8')) as { faults: Record<string, Record<string, string>> };
// The reference refetches the IdP's keys at once on an unfamiliar kid: an allowance of 3 s (not
// the default 60 s a real gateway may need) still tells it from a gateway that never refetches.
const REFETCH_S = 3;
const start = (fault?: string) => runAppsDemo(resolveConfig({ seed: '1', reporter: ['json'], profile: 'apps', jwksRefetchS: String(REFETCH_S) }, {}, {}), fault, () => {});

// The runs go on at once, GWC_APPS_DETECTION_CONCURRENCY at a time (default 6), started in the
// order of the tests; each test awaits its own. Each run has its own gateway, database, IdP,
// collector and upstreams, and no apps check judges time finer than seconds (span waits 5 s,
// requests 10 s), so runs beside each other overlap their waits. A run's set-up holds this
// process for up to seconds on a loaded machine (PGlite loading its template): the apps checks'
// bounds count the gateway's silence, not such holds (src/core/stall.ts; apps.disc.models's 3 s).
const CONCURRENCY = Number(process.env.GWC_APPS_DETECTION_CONCURRENCY ?? 6);
/** A test waits for its run, which waits for a free slot and then for its checks: long, but bounded (a loaded machine runs 13 of these beside other test files). */
const RUN_WAIT_MS = 300_000;
let runs = new Map<string | undefined, Promise<RunReport>>();
const run = (fault?: string) => runOf(runs, fault);

describe('apps detection matrix', () => {
  beforeAll(() => void (runs = startAtOnce([undefined, ...APPS_FAULTS.map((f) => f.name)].map((f) => [f, () => start(f)]), CONCURRENCY)));

  it('the clean reference apps gateway passes every apps check', async () => {
    const r = await run();
    expect(r.results.map((x) => x.id).sort()).toEqual(APPS_CHECKS.map((c) => c.id).sort());
    expect(r.results.filter((x) => x.outcome !== 'pass').map((x) => `${x.id}: ${x.outcome}: ${x.message}`)).toEqual([]);
    expect(r.exitCode).toBe(0);
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
});
