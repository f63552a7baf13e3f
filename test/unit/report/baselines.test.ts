// The baselines' update mode (test/helpers/baselines.ts, scripts/baselines.mjs), on temporary
// copies of the recorded files and a run given as a report's outcomes (no gateway runs here):
// with the switch on a stale baseline is rewritten from the run, its note kept and each change
// printed; with it off the same mismatch fails, naming the command that rewrites it; an
// up-to-date baseline is left byte for byte. The same writer rewrites a detection row.
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonText, outcomeChanges, withRow, type Baseline, type DetectionFile } from '../../../scripts/baselines.mjs';
import { baselineProtocols, checkBaseline, observedOutcomes, protocolArgs, UPDATE_COMMAND, UPDATE_ENV } from '../../helpers/baselines.js';
import { PROTOCOLS } from '../../../src/core/protocols.js';
import { CHECKS } from '../../../suites/index.js';
import { cleanupAfterAll } from '../../helpers/cleanup.js';
import { ROOT } from '../../helpers/cli.js';

const { tempDir } = cleanupAfterAll();
const ORIGINAL = path.join(ROOT, 'examples', 'nginx', 'expected-plain.json');
const original = () => JSON.parse(readFileSync(ORIGINAL, 'utf8')) as Baseline;

/** A temporary copy of the plain nginx baseline. */
function copy(): string {
  const file = path.join(tempDir('gwc-baseline-'), 'expected-plain.json');
  copyFileSync(ORIGINAL, file);
  return file;
}

/** A run that differs from the recorded one: one outcome changed, one check gone, one new, the exit code 0. */
function staleRun() {
  const outcomes: Record<string, string> = { ...original().outcomes, 'streaming.delivery.incremental': 'pass', 'errors.new.check': 'warn' };
  delete outcomes['messages.cors.preflight'];
  return { exitCode: 0, outcomes };
}

const on = { [UPDATE_ENV]: '1' };
const off = {};

describe('the baselines\' update mode', () => {
  it('with the switch on, rewrites a stale baseline from the run, keeps its note, prints each change and regenerates the docs table', () => {
    const file = copy();
    const printed: string[] = [];
    let regenerated = 0;
    const lines = checkBaseline(file, staleRun(), { test: 'test/real/nginx/nginx.test.ts', env: on, print: (l) => printed.push(l), regenerate: () => regenerated++ });
    const label = path.relative(ROOT, file);
    expect(lines).toEqual([
      `${label}: ~ exit code: 1 -> 0`,
      `${label}: + errors.new.check: warn`,
      `${label}: - messages.cors.preflight: pass`,
      `${label}: ~ streaming.delivery.incremental: fail -> pass`,
    ]);
    expect(printed.slice(0, 4)).toEqual(lines);
    expect(printed[4]).toMatch(/rewritten from the run .*docs\/real-gateways\.md regenerated/);
    expect(regenerated).toBe(1);
    const written = JSON.parse(readFileSync(file, 'utf8')) as Baseline;
    expect(written.note).toBe(original().note);
    expect(written.exitCode).toBe(0);
    expect(written.outcomes).toEqual(staleRun().outcomes);
    // The checks it kept stay in their recorded order, the new one after them.
    expect(Object.keys(written.outcomes)).toEqual([...Object.keys(original().outcomes).filter((id) => id !== 'messages.cors.preflight'), 'errors.new.check']);
    // Now it is the run's: with the switch off the same run passes.
    expect(checkBaseline(file, staleRun(), { test: 'x', env: off })).toEqual([]);
  });

  it('with the switch off, the stale baseline fails naming what differs and the command that rewrites it, and is not written', () => {
    const file = copy();
    const before = readFileSync(file, 'utf8');
    let message = '';
    try {
      checkBaseline(file, staleRun(), { test: 'test/real/nginx/nginx.test.ts', env: off, regenerate: () => expect.fail('no regeneration with the switch off') });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('is stale: the run differs from the recorded baseline in 4 place(s)');
    expect(message).toContain('~ streaming.delivery.incremental: fail -> pass');
    expect(message).toContain(`\`${UPDATE_COMMAND}\``);
    expect(message).toContain('GWC_UPDATE_BASELINES=1 npx vitest run test/real/nginx/nginx.test.ts');
    expect(readFileSync(file, 'utf8')).toBe(before);
    // Only the exact value turns it on.
    expect(() => checkBaseline(file, staleRun(), { test: 'x', env: { [UPDATE_ENV]: 'true' } })).toThrow(/is stale/);
  });

  it('an up-to-date baseline passes either way and is left byte for byte', () => {
    const file = copy();
    const before = readFileSync(file, 'utf8');
    const run = { exitCode: original().exitCode, outcomes: original().outcomes };
    const printed: string[] = [];
    expect(checkBaseline(file, run, { test: 'x', env: on, print: (l) => printed.push(l), regenerate: () => expect.fail('nothing to regenerate') })).toEqual([]);
    expect(printed).toEqual([`${path.relative(ROOT, file)}: unchanged`]);
    expect(checkBaseline(file, run, { test: 'x', env: off })).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('a run killed before its exit code is an error, never a baseline', () => {
    expect(() => checkBaseline(copy(), { exitCode: null, outcomes: {} }, { test: 'x', env: on })).toThrow(/without an exit code/);
  });
});

describe('the protocols a baseline was observed with', () => {
  const chat = CHECKS.find((c) => c.protocol === 'chat')!;
  const general = CHECKS.find((c) => c.protocol === undefined)!;
  const skipped = (id: string) => ({ id, outcome: 'skip' });

  it('every recorded baseline names them, and a run compared with it declares exactly those; the update mode declares every protocol', () => {
    for (const file of ['nginx/expected-plain.json', 'nginx/expected-streaming.json', 'nginx/expected-hardened.json', 'haproxy/expected.json', 'haproxy/expected-streaming.json', 'haproxy/expected-json-errors.json']) {
      const full = path.join(ROOT, 'examples', file);
      const recorded = (JSON.parse(readFileSync(full, 'utf8')) as Baseline).protocols;
      expect(recorded.length, file).toBeGreaterThan(0);
      expect(baselineProtocols(full, off), file).toEqual(recorded);
      expect(baselineProtocols(full, on), file).toEqual([...PROTOCOLS]);
    }
    expect(protocolArgs(['messages', 'chat'])).toEqual(['--protocols', 'messages,chat']);
  });

  it('leaves out only the rows of checks skipped because their protocol was not declared', () => {
    const results = [skipped(chat.id), skipped(general.id), { id: 'unknown.check', outcome: 'skip' }];
    expect(observedOutcomes(results, ['messages'])).toEqual({ [general.id]: 'skip', 'unknown.check': 'skip' });
    // Declared, its skip (for another reason) is a row like any other.
    expect(observedOutcomes(results, ['messages', 'chat'])).toEqual({ [chat.id]: 'skip', [general.id]: 'skip', 'unknown.check': 'skip' });
    // A check of an undeclared protocol that was not skipped stays compared.
    expect(observedOutcomes([{ id: chat.id, outcome: 'fail' }], ['messages'])).toEqual({ [chat.id]: 'fail' });
  });

  it('a run with more protocols (the update mode) records them with its rows; compared, a different list is a change', () => {
    const file = copy();
    const protocols = [...original().protocols, 'dummy'];
    const run = { protocols, exitCode: original().exitCode, outcomes: { ...original().outcomes, 'dummy.check': 'pass' } };
    const label = path.relative(ROOT, file);
    const lines = checkBaseline(file, run, { test: 'x', env: on, print: () => {}, regenerate: () => {} });
    expect(lines).toEqual([`${label}: ~ protocols: ${original().protocols.join(',')} -> ${protocols.join(',')}`, `${label}: + dummy.check: pass`]);
    const written = JSON.parse(readFileSync(file, 'utf8')) as Baseline;
    expect(written.protocols).toEqual(protocols);
    expect(Object.keys(written)).toEqual(['note', 'protocols', 'exitCode', 'outcomes']);
    expect(() => checkBaseline(file, { ...run, protocols: original().protocols }, { test: 'x', env: off })).toThrow(/~ protocols: /);
  });
});

describe('a detection row rewritten from a run (node scripts/detection.mjs --write FAULT)', () => {
  const errors = JSON.parse(readFileSync(path.join(ROOT, 'test', 'detection', 'errors.json'), 'utf8')) as DetectionFile;
  const [fault, row] = Object.entries(errors.faults).find(([, r]) => Object.keys(r).length >= 2)!;

  it('replaces the named fault\'s row only, keeps the description and every other row as written', () => {
    const first = Object.keys(row)[0];
    const changed: Record<string, string> = { ...row, 'errors.extra.check': 'warn' };
    delete changed[first];
    const next = withRow(errors, fault, changed);
    expect(next.faults[fault]).toEqual(changed);
    expect(next.description).toBe(errors.description);
    for (const [name, r] of Object.entries(errors.faults)) if (name !== fault) expect(next.faults[name]).toBe(r);
    const changes = outcomeChanges(row, next.faults[fault]);
    expect(changes).toHaveLength(2);
    expect(changes).toEqual(expect.arrayContaining(['+ errors.extra.check: warn', `- ${first}: ${row[first]}`]));
  });

  it('the row a run gives again writes the file unchanged, byte for byte', () => {
    const text = readFileSync(path.join(ROOT, 'test', 'detection', 'errors.json'), 'utf8');
    const shuffled = Object.fromEntries(Object.entries(row).reverse());
    expect(jsonText(withRow(errors, fault, shuffled))).toBe(text);
  });

  it('a new fault\'s row is appended, its ids sorted', () => {
    const next = withRow(errors, 'new-fault', { 'b.check': 'fail', 'a.check': 'warn' });
    expect(Object.keys(next.faults).at(-1)).toBe('new-fault');
    expect(Object.keys(next.faults['new-fault'])).toEqual(['a.check', 'b.check']);
  });
});

describe('node scripts/detection.mjs --write (the built tree)', () => {
  const detection = (...args: string[]) => spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'detection.mjs'), ...args], { cwd: ROOT, encoding: 'utf8' });

  it('rewrites only the faults it is named, or all with --all: without names it refuses in one line, exit 2', { timeout: 60_000 }, () => {
    const r = detection('--write');
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('detection: --write rewrites the rows of the faults it is given: name them (or --all for every fault)');
  });

  it('refuses an unknown fault, or one of the load matrix, in one line, exit 2, before any run', { timeout: 60_000 }, () => {
    const r = detection('--write', 'no-such-fault', 'load-tiny-pool');
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^detection: unknown fault no-such-fault, load-tiny-pool /)]);
  });
});
