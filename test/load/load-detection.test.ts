// The load profile's detection matrix: the clean reference gateway passes every load check,
// with and without a declared limit, and each load fault is caught by exactly the checks
// test/detection/load.json names for it. Not the default matrix: its runs go on six at a time
// beside each other, and the load checks measure the gateway under a load of their own (they run
// alone). So here the runs that send load go one after the other; the limit runs, which judge
// no time, go at once.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RecordingUpstream } from '../../mocks/upstream/server.js';
import { LOAD_FAULTS } from '../../reference/faults/index.js';
import type { RunReport } from '../../src/report/shared/types.js';
import { LOAD_CHECKS } from '../../suites/load/index.js';
import { throughLaunchedReference, throughReference, type Flags } from '../helpers/load-suite.js';
/** The flag sets of test/detection/load.json: load, load with a latency budget, a declared limit, load through the reference gateway launched as a process (its memory read). */
type Kind = 'load' | 'budget' | 'limit' | 'launched';
const expected = JSON.parse(readFileSync(new URL('../detection/load.json', import.meta.url), 'utf8')) as { flags: Record<Kind, Flags>; faults: Record<string, Record<string, string>> };

async function loadRun(fault: string | undefined, flags: Flags, launched: boolean): Promise<RunReport> {
  const upstream = new RecordingUpstream();
  await upstream.start('127.0.0.1', 0);
  try {
    return await (launched ? throughLaunchedReference : throughReference)(upstream, fault, flags);
  } finally {
    await upstream.stop();
  }
}

const outcomes = (r: RunReport) => Object.fromEntries(r.results.filter((x) => x.outcome !== 'pass' && x.outcome !== 'skip').map((x) => [x.id, x.outcome]));
const why = (r: RunReport) => r.results.filter((x) => x.outcome !== 'pass').map((x) => `${x.id}: ${x.outcome}: ${x.message}`).join('\n');
const isLimit = (id: string) => id.startsWith('load.limit.');
/** Checks the clean load runs skip: the memory check judges only a gateway the harness launched, the frontier runs only with --load-frontier. */
const isLaunchedOnly = (id: string) => id === 'load.resources.growth' || id === 'load.perf.frontier';

/** The load runs one after the other (each is timed), the limit runs at once. */
let chain: Promise<unknown> = Promise.resolve();
const runs = new Map<string, Promise<RunReport>>();
function scheduled(key: string, fault: string | undefined, kind: Kind): Promise<RunReport> {
  if (!runs.has(key)) {
    const start = () => loadRun(fault, expected.flags[kind], kind === 'launched');
    const p = kind === 'limit' ? start() : chain.then(start);
    if (kind !== 'limit') chain = p.catch(() => undefined);
    runs.set(key, p);
  }
  return runs.get(key)!;
}

describe('load detection matrix', () => {
  for (const kind of ['load', 'limit'] as const)
    it(`the clean reference gateway passes every ${kind} check (the others skipped, with the reason)`, async () => {
      const r = await scheduled(`clean ${kind}`, undefined, kind);
      expect(r.results.map((x) => x.id).sort()).toEqual(LOAD_CHECKS.map((c) => c.id).sort());
      expect(outcomes(r), why(r)).toEqual({});
      // The memory check judges only a gateway the harness launched: in this process it could not judge.
      for (const x of r.results) expect(x.outcome, `${x.id}: ${x.message}`).toBe(isLimit(x.id) === (kind === 'limit') && !isLaunchedOnly(x.id) ? 'pass' : 'skip');
      const growth = r.results.find((x) => x.id === 'load.resources.growth')!;
      if (kind === 'load') expect(growth.message).toMatch(/did not launch the gateway .* could not judge/);
      expect(r.exitCode).toBe(0);
    }, 120_000);

  it('the clean reference gateway launched as a process passes the memory check, and the report has its resources', async () => {
    const r = await scheduled('clean launched', undefined, 'launched');
    expect(r.results.map((x) => [x.id, x.outcome]), why(r)).toEqual([['load.resources.growth', 'pass']]);
    const res = r.launched?.resources;
    expect(res?.samples).toBeGreaterThan(2);
    expect(res?.memory.idle).toBeGreaterThan(0);
    expect(res?.memory.peak).toBeGreaterThanOrEqual(res!.memory.idle!);
    expect(res?.coldStart.readyMs).toBeGreaterThan(0);
    expect(res?.coldStart.firstAnswerMs).toBeGreaterThanOrEqual(res!.coldStart.readyMs!);
    expect(res?.loadRequests).toBe(500);
  }, 180_000);

  it('names every load fault, and every load check is proven by a fault', () => {
    expect(Object.keys(expected.faults).sort()).toEqual(LOAD_FAULTS.map((f) => f.name).sort());
    const proven = new Set(Object.values(expected.faults).flatMap((o) => Object.keys(o).filter((k) => k !== 'runs')));
    expect(LOAD_CHECKS.map((c) => c.id).filter((id) => !proven.has(id))).toEqual([]);
  });

  for (const f of LOAD_FAULTS) {
    it(`fault ${f.name} fails exactly its expected checks`, async () => {
      const { runs: kind, ...want } = expected.faults[f.name];
      const r = await scheduled(`fault ${f.name}`, f.name, kind as Kind);
      expect(outcomes(r), why(r)).toEqual(want);
      expect(r.exitCode).toBe(Object.values(want).includes('fail') ? 1 : 0);
    }, 180_000);
  }
});
