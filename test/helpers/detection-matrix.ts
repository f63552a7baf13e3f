// The detection matrix: the clean reference gateway passes every check, and each fault is
// caught by exactly the checks test/detection/*.json names for it (and no other check it
// reaches). One expectation file per area, so each area's faults are reviewed beside its checks
// (a protocol's file may hold other areas' faults' rows of that protocol's own checks too);
// a row is recorded from a run by `node scripts/detection.mjs --write FAULT...`, never typed.
// The clean run is traced once, by the first part to get to it (test/helpers/matrix-trace.ts), and a
// fault runs with the checks it can reach (test/helpers/reach.ts: those whose exchanges its
// hooks alter), every check when it acts beyond single requests; GWC_MATRIX_FULL=1 (`npm run
// test:matrix:full`) runs every fault with every check. The fault runs, costliest first, are
// dealt out round-robin to PARTS test files (test/detection/detection.test.ts, test/detection/detection-2.test.ts, ...),
// one vitest process each, so that the runs go on side by side in processes of their own. A run
// mostly waits (the 16 s keep-alive probe, the hung upstream, scripted gaps), and within one
// process the runs' timing checks would have to be kept apart from each other's work by a
// PhaseGate, which made one process's runs take turns (its event loop idle 65% of the time).
// A file starts its runs GWC_DETECTION_CONCURRENCY at a time (default 1: no run of the file
// meets another's work in its event loop; with more, the PhaseGate keeps each timing check
// apart from the work of the file's other runs). Between processes the operating system shares
// the cores: the oracle's verdicts hold with both cores taken by other work (`npm run
// bench:oracle -- --stress`).
import { readdirSync, readFileSync } from 'node:fs';
import { readMatrix } from '../../scripts/detection-rows.mjs';
import { PROTOCOLS } from '../../src/core/protocols.js';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { FAULTS } from '../../reference/faults/index.js';
import { CHECKS } from '../../suites/index.js';
import { demoRun } from './demo.js';
import { PhaseGate } from '../../src/runner/gate.js';
import type { RunReport } from '../../src/report/shared/types.js';
import { runOf, startAtOnce } from './at-once.js';
import { PARTS } from './matrix-parts.js';
import { tracedCleanRun } from './matrix-trace.js';
import { shared } from './lane.js';
import './lane-setup.js';

const dir = new URL('../detection/', import.meta.url);
type Flags = Parameters<typeof demoRun>[1];
// Every file's rows merged (scripts/detection-rows.mjs: a fault's home file and, for a protocol's
// own checks, that protocol's file; a row given twice is an error). apps.json is the apps
// profile's matrix (test/apps/apps-detection.test.ts), load.json the load profile's (test/load/load-detection.test.ts).
const expected = readMatrix(dir, PROTOCOLS) as { faults: Record<string, Record<string, string>>; flags: Record<string, Flags> };

/** A check's skip on a translated route: what it compares cannot cross a translation. */
const isTranslatedSkip = (x: RunReport['results'][number]) => x.outcome === 'skip' && x.message.startsWith('translated route: ');
const translatedSkips = (r: RunReport) => r.results.filter(isTranslatedSkip).map((x) => x.id).sort();
/** The checks that skip on the reference gateway's messages → chat route (translate.json): each declares what a translation cannot keep. */
const TRANSLATED_SKIPS = (JSON.parse(readFileSync(new URL('translate.json', dir), 'utf8')) as { translatedSkips: string[] }).translatedSkips;

const CONCURRENCY = Number(process.env.GWC_DETECTION_CONCURRENCY ?? 1);
/** A run waits for a free slot, then for its checks: long, but bounded. */
const RUN_WAIT_MS = 600_000;

/**
 * Part `part` (0 to PARTS - 1) of the matrix: every PARTS-th run of the clean runs followed by
 * the faults, and in part 0 the matrix's own completeness tests.
 */
export async function detectionMatrix(part: number): Promise<void> {
  // Before the tests are declared: which fault goes to which part follows from every reach.
  const traced = await shared(inject('coordinator'), 'matrix-trace', tracedCleanRun);
  const full = process.env.GWC_MATRIX_FULL === '1';
  const cleanFlags = [...new Set(Object.values(expected.flags).map((f) => JSON.stringify(f)))];
  /** The checks a fault runs with: its row's flags as they are, else every check (full) or those it reaches. */
  const runFlags = (f: (typeof FAULTS)[number]): Flags => expected.flags[f.name] ?? (full || traced.reach[f.name].full ? {} : { only: traced.reach[f.name].checks });
  const pruned = (f: (typeof FAULTS)[number]) => !expected.flags[f.name] && !full && !traced.reach[f.name].full;
  const cost = (flags: Flags) => (Array.isArray(flags?.only) ? flags.only.length : traced.checks);
  // Each run once, with the flags it takes: the clean runs with each row's flags (the plain one is
  // the traced run), then the faults; a fault that reaches no check has no run. Costliest first.
  const all: Array<{ key: string; flags: Flags; fault?: (typeof FAULTS)[number] }> = [
    ...cleanFlags.map((f) => ({ key: `clean ${f}`, flags: JSON.parse(f) as Flags })),
    ...FAULTS.filter((f) => !pruned(f) || traced.reach[f.name].checks.length).map((f) => ({ key: `fault ${f.name}`, flags: runFlags(f), fault: f })),
  ].sort((a, b) => cost(b.flags) - cost(a.flags));
  const mine = all.filter((_, i) => i % PARTS === part);
  const faults = mine.flatMap((r) => (r.fault ? [r.fault] : []));
  /** Every run of this part, started together and `CONCURRENCY` at a time; each test awaits its own. */
  const gate = new PhaseGate();
  const wanted = mine.map((r): [string, () => Promise<RunReport>] => [r.key, () => demoRun(r.fault?.name, r.flags, gate)]);
  let runs = new Map<string, Promise<RunReport>>();
  const run = (key: string) => runOf(runs, key);
  const has = (key: string) => mine.some((r) => r.key === key);

  describe(`detection matrix, part ${part + 1} of ${PARTS}`, () => {
    beforeAll(() => void (runs = startAtOnce(wanted, CONCURRENCY)));

    if (part === 0)
      it('the clean reference gateway passes every check (the traced run)', () => {
        expect(traced.checks).toBeGreaterThan(0);
        expect(traced.notPassing).toEqual([]);
        expect(traced.exitCode).toBe(0);
        expect(traced.unmatchedRequests).toEqual([]);
      });

    // Checks outside the default profile are proven with the flags their fault runs with.
    for (const flags of cleanFlags) {
      if (!has(`clean ${flags}`)) continue;
      it(`the clean reference gateway passes with ${flags}`, { timeout: RUN_WAIT_MS }, async () => {
        const r = await run(`clean ${flags}`);
        expect(r.results.length).toBeGreaterThan(0);
        expect(r.results.filter((x) => x.outcome !== 'pass').map((x) => `${x.id}: ${x.outcome}: ${x.message}`)).toEqual([]);
      });
    }

    if (part === 0) {
      it('every part of the matrix has its test file, each running its own part', () => {
        const wanted = Array.from({ length: PARTS }, (_, i) => (i ? `detection-${i + 1}.test.ts` : 'detection.test.ts'));
        const files = readdirSync(new URL('../detection/', import.meta.url)).filter((n) => /^detection(-\d+)?\.test\.ts$/.test(n));
        expect(files.sort()).toEqual([...wanted].sort());
        wanted.forEach((f, i) => expect(readFileSync(new URL(`../detection/${f}`, import.meta.url), 'utf8'), f).toContain(`await detectionMatrix(${i});`));
      });

      it('names every fault, and every fault but a control is caught by at least one check', () => {
        expect(Object.keys(expected.faults).sort()).toEqual(FAULTS.map((f) => f.name).sort());
        // A fault that breaks nothing on purpose is a control (e.g. a per-event delay within the
        // bounds): no check may fail it or warn about it, so the oracle is shown not to flag it. Its
        // row may name a skip or an info where a check says it could not judge or does not apply
        // (a gateway that answers a request itself, or takes no client credential): each is
        // compared exactly like any other row.
        for (const [fault, outcomes] of Object.entries(expected.faults)) {
          if (FAULTS.find((f) => f.name === fault)?.breaks.length === 0) expect(Object.entries(outcomes).filter(([, o]) => o !== 'skip' && o !== 'info'), `${fault} is a control`).toEqual([]);
          else expect(Object.keys(outcomes).length, fault).toBeGreaterThan(0);
        }
      });

      it('every check that skips on the translated route declares what a translation cannot keep', () => {
        expect(TRANSLATED_SKIPS.filter((id) => !CHECKS.find((c) => c.id === id)?.untranslatable)).toEqual([]);
      });

      it('every check a fault is expected to fail is among those it reaches', () => {
        const unreached = FAULTS.filter(pruned).flatMap((f) => Object.keys(expected.faults[f.name] ?? {}).filter((id) => !traced.reach[f.name].checks.includes(id)).map((id) => `${f.name}: ${id}`));
        expect(unreached, 'a fault is expected to fail a check whose exchanges its hooks never alter in the clean run (test/helpers/reach.ts): the expectation or the reach is wrong').toEqual([]);
      });

      it('every check is proven by at least one fault', () => {
        const proven = new Set(Object.values(expected.faults).flatMap((o) => Object.keys(o)));
        // Service-profile checks run against a hosted service, not the demo: test/unit/suites/service.test.ts proves them;
        // apps-profile checks are proven by test/apps/apps-detection.test.ts, client-profile checks (real
        // clients, straight and through the gateway) by test/real/clients/client-profile.test.ts, load-profile checks by
        // test/load/load-detection.test.ts.
        expect(CHECKS.filter((c) => c.profile !== 'service' && c.profile !== 'apps' && c.profile !== 'client' && c.profile !== 'load').map((c) => c.id).filter((id) => !proven.has(id))).toEqual([]);
      });
    }

    // A fault whose hooks alter no exchange of the clean run breaks nothing it can be run against: a control.
    const idle = part === 0 ? FAULTS.filter((f) => pruned(f) && !traced.reach[f.name].checks.length) : [];
    for (const f of idle)
      it(`fault ${f.name} reaches no check, and is expected to fail none`, () => {
        expect(expected.faults[f.name]).toEqual({});
      });

    for (const f of faults) {
      it(`fault ${f.name} fails exactly its expected checks`, { timeout: RUN_WAIT_MS }, async () => {
        const r = await run(`fault ${f.name}`);
        // With the checks it reaches: each of them ran, on the routes of the clean run (no translated skip).
        if (pruned(f)) {
          expect(r.results.map((x) => x.id).sort()).toEqual(traced.reach[f.name].checks);
          expect(translatedSkips(r)).toEqual([]);
        }
        // On a translated route the checks of bytes and forwarded headers skip, naming the route:
        // those skips are the route's, not the fault's, and are held to the checks that declare them.
        if (f.translate) expect(translatedSkips(r)).toEqual(TRANSLATED_SKIPS);
        const counted = r.results.filter((x) => x.outcome !== 'pass' && !(f.translate && isTranslatedSkip(x)));
        const got = Object.fromEntries(counted.map((x) => [x.id, x.outcome]));
        const why = counted.map((x) => `${x.id}: ${x.outcome}: ${x.message}`).join('\n');
        const rewrite = `if the run is right, record its row with \`npm run build && node scripts/detection.mjs --write ${f.name}\` and review the diff`;
        expect(got, `${why}\n${rewrite}`).toEqual(expected.faults[f.name]);
        expect(r.exitCode).toBe(Object.values(got).includes('fail') ? 1 : 0);
      });
    }
  });
}
