// The detection matrix: the clean reference gateway passes every check, and each fault is
// caught by exactly the checks test/detection/*.json names for it (and no other check).
// One expectation file per area, so each area's faults are reviewed beside its checks.
// The runs go on at once (GWC_DETECTION_CONCURRENCY at a time, default 6), each with its own
// gateway and upstream: a run mostly waits (the 10 s idle probe, the hung upstream, scripted
// gaps). A PhaseGate shared by all of them keeps every timing check apart from the work of the
// other runs in this process, so a timing verdict sees only its own gateway's delays.
// The matrix is cut in two halves, two test files (test/detection.test.ts and
// test/detection-2.test.ts), so that each half has a process and a core of its own: the gate
// orders the runs of one process only, and the halves' timing phases then go on side by side.
// The oracle's verdicts hold with both cores taken by other work (`npm run bench:oracle --
// --stress`, stress-ng --cpu 2: 0 of 700 runs differed), which is what a second half is.
import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { FAULTS } from '../../reference/faults/index.js';
import { CHECKS } from '../../suites/index.js';
import { demoRun } from './demo.js';
import { PhaseGate } from '../../src/runner/gate.js';
import type { RunReport } from '../../src/report/types.js';
import { runOf, startAtOnce } from './at-once.js';

const dir = new URL('../detection/', import.meta.url);
type Flags = Parameters<typeof demoRun>[1];
const expected: { faults: Record<string, Record<string, string>>; flags: Record<string, Flags> } = { faults: {}, flags: {} };
// apps.json is the apps profile's matrix (test/apps-detection.test.ts), load.json the load profile's (test/load-detection.test.ts).
for (const f of readdirSync(dir).filter((n) => n.endsWith('.json') && n !== 'apps.json' && n !== 'load.json')) {
  const part = JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as { faults: Record<string, Record<string, string>>; flags?: Record<string, Flags> };
  Object.assign(expected.flags, part.flags ?? {});
  for (const [fault, outcomes] of Object.entries(part.faults)) {
    if (expected.faults[fault]) throw new Error(`fault ${fault} is expected in two files`);
    expected.faults[fault] = outcomes;
  }
}

/** A check's skip on a translated route: what it compares cannot cross a translation. */
const isTranslatedSkip = (x: RunReport['results'][number]) => x.outcome === 'skip' && x.message.startsWith('translated route: ');
const translatedSkips = (r: RunReport) => r.results.filter(isTranslatedSkip).map((x) => x.id).sort();
/** The checks that skip on the reference gateway's messages → chat route (translate.json): each declares what a translation cannot keep. */
const TRANSLATED_SKIPS = (JSON.parse(readFileSync(new URL('translate.json', dir), 'utf8')) as { translatedSkips: string[] }).translatedSkips;

const CONCURRENCY = Number(process.env.GWC_DETECTION_CONCURRENCY ?? 6);
/** A run waits for a free slot, then for its checks: long, but bounded. */
const RUN_WAIT_MS = 600_000;

/**
 * Half `half` (0 or 1) of the matrix: half 0 holds the clean runs and the matrix's own
 * completeness tests, and each half every other fault (in the order of FAULTS).
 */
export function detectionMatrix(half: 0 | 1): void {
  const faults = FAULTS.filter((_, i) => i % 2 === half);
  /** Every run of the matrix, started together and `CONCURRENCY` at a time; each test awaits its own. */
  const gate = new PhaseGate();
  const wanted: Array<[string, () => Promise<RunReport>]> = [];
  let runs = new Map<string, Promise<RunReport>>();
  const scheduled = (key: string, start: () => Promise<RunReport>) => void wanted.push([key, start]);
  const run = (key: string) => runOf(runs, key);

  describe(`detection matrix, half ${half + 1} of 2`, () => {
    if (half === 0) {
      scheduled('clean', () => demoRun(undefined, {}, gate));
      for (const flags of new Set(Object.values(expected.flags).map((f) => JSON.stringify(f)))) scheduled(`clean ${flags}`, () => demoRun(undefined, JSON.parse(flags), gate));
    }
    for (const f of faults) scheduled(`fault ${f.name}`, () => demoRun(f.name, expected.flags[f.name], gate));
    beforeAll(() => void (runs = startAtOnce(wanted, CONCURRENCY)));

    if (half === 0) {
      it('the clean reference gateway passes every check', { timeout: RUN_WAIT_MS }, async () => {
        const r = await run('clean');
        expect(r.results.filter((x) => x.outcome !== 'pass').map((x) => `${x.id}: ${x.outcome}: ${x.message}`)).toEqual([]);
        expect(r.exitCode).toBe(0);
        expect(r.unmatchedRequests).toEqual([]);
      });

      // Checks outside the default profile are proven with the flags their fault runs with.
      for (const flags of new Set(Object.values(expected.flags).map((f) => JSON.stringify(f)))) {
        it(`the clean reference gateway passes with ${flags}`, { timeout: RUN_WAIT_MS }, async () => {
          const r = await run(`clean ${flags}`);
          expect(r.results.length).toBeGreaterThan(0);
          expect(r.results.filter((x) => x.outcome !== 'pass').map((x) => `${x.id}: ${x.outcome}: ${x.message}`)).toEqual([]);
        });
      }

      it('names every fault, and every fault but a control is caught by at least one check', () => {
        expect(Object.keys(expected.faults).sort()).toEqual(FAULTS.map((f) => f.name).sort());
        // A fault that breaks nothing on purpose is a control (e.g. a per-event delay within the
        // bounds): it must pass every check, so the oracle is shown not to flag it.
        for (const [fault, outcomes] of Object.entries(expected.faults)) {
          if (FAULTS.find((f) => f.name === fault)?.breaks.length === 0) expect(outcomes, `${fault} is a control`).toEqual({});
          else expect(Object.keys(outcomes).length, fault).toBeGreaterThan(0);
        }
      });

      it('every check that skips on the translated route declares what a translation cannot keep', () => {
        expect(TRANSLATED_SKIPS.filter((id) => !CHECKS.find((c) => c.id === id)?.untranslatable)).toEqual([]);
      });

      it('every check is proven by at least one fault', () => {
        const proven = new Set(Object.values(expected.faults).flatMap((o) => Object.keys(o)));
        // Service-profile checks run against a hosted service, not the demo: test/service.test.ts proves them;
        // apps-profile checks are proven by test/apps-detection.test.ts, client-profile checks (real
        // clients, straight and through the gateway) by test/client-profile.test.ts, load-profile checks by
        // test/load-detection.test.ts.
        expect(CHECKS.filter((c) => c.profile !== 'service' && c.profile !== 'apps' && c.profile !== 'client' && c.profile !== 'load').map((c) => c.id).filter((id) => !proven.has(id))).toEqual([]);
      });
    }

    for (const f of faults) {
      it(`fault ${f.name} fails exactly its expected checks`, { timeout: RUN_WAIT_MS }, async () => {
        const r = await run(`fault ${f.name}`);
        // On a translated route the checks of bytes and forwarded headers skip, naming the route:
        // those skips are the route's, not the fault's, and are held to the checks that declare them.
        if (f.translate) expect(translatedSkips(r)).toEqual(TRANSLATED_SKIPS);
        const counted = r.results.filter((x) => x.outcome !== 'pass' && !(f.translate && isTranslatedSkip(x)));
        const got = Object.fromEntries(counted.map((x) => [x.id, x.outcome]));
        const why = counted.map((x) => `${x.id}: ${x.outcome}: ${x.message}`).join('\n');
        expect(got, why).toEqual(expected.faults[f.name]);
        expect(r.exitCode).toBe(Object.values(got).includes('fail') ? 1 : 0);
      });
    }
  });
}
