// The heap settings of the gw-conformance process (src/core/heap.ts): bin/gw-conformance.js
// applies them before the harness's modules load, and they keep V8's young generation at its
// initial size. Measured from inside the process: the flags it hands V8, and the new space's
// committed size after loading what a run loads (`demo --dry-run` loads every module of the
// default run, the checks, the reference gateway and the recording upstream, and runs nothing),
// with and without the settings, and that a library only the load profile needs is not among them.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.js';

/**
 * Loaded before the script (node --import): prints at exit, from inside the process, the new
 * space's committed size (bytes) and every flag the process handed V8 with v8.setFlagsFromString
 * (recorded by wrapping it; syncBuiltinESMExports makes `import { setFlagsFromString }` see the wrapper too).
 */
const PROBE = `data:text/javascript,${encodeURIComponent(`
import v8 from 'node:v8';
import { syncBuiltinESMExports } from 'node:module';
const set = v8.setFlagsFromString, flags = [];
v8.setFlagsFromString = (f) => { flags.push(f); return set.call(v8, f); };
syncBuiltinESMExports();
import { createRequire } from 'node:module';
const loaded = () => Object.keys(createRequire(process.cwd() + '/').cache).filter((k) => k.includes('/node_modules/hdr-histogram-js/')).length > 0;
process.on('exit', () => process.stderr.write('PROBE ' + JSON.stringify({ newSpace: v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size, flags, hdr: loaded() }) + '\\n'));
`)}`;

function probe(script: string[]): { newSpace: number; flags: string[]; hdr: boolean } {
  const r = spawnSync(process.execPath, ['--import', PROBE, ...script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  const m = /PROBE (.*)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`exit ${r.status}: ${r.stderr.slice(-400)}`);
  return JSON.parse(m[1]) as { newSpace: number; flags: string[]; hdr: boolean };
}

const BIN = join(ROOT, 'bin/gw-conformance.js');
/** What loads the modules of a default run and runs nothing. */
const LOAD_A_RUN = ['demo', '--dry-run'];
/** The same, through `main` of dist/cli/main.js in a plain node: without bin's settings. */
const LOAD_A_RUN_WITHOUT_BIN = ['--input-type=module', '-e', `await (await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/cli/main.js')).href)})).main(${JSON.stringify(LOAD_A_RUN)}, { out() {}, err() {}, env: {}, untilStopped: async () => {} })`];

const MIB = 1024 * 1024;

describe('heap settings', () => {
  it('bin/gw-conformance.js hands V8 the young-generation growth factor, baseline-only WebAssembly and the old generation\'s growth', () => {
    expect(probe([BIN, '--version']).flags).toEqual(['--semi-space-growth-factor=1', '--liftoff-only', '--heap-growing-percent=50']);
  });

  it('the CLI loaded without bin sets no V8 flag (the probe sees only what the process sets)', () => {
    expect(probe(LOAD_A_RUN_WITHOUT_BIN).flags).toEqual([]);
  });

  it('bin/gw-conformance.js keeps the young generation at its initial size while every module of a run loads', () => {
    // With the settings: two semi-spaces of 1 MiB (and their page headers).
    expect(probe([BIN, ...LOAD_A_RUN]).newSpace).toBeLessThanOrEqual(3 * MIB);
  });

  it('the latency histograms\' library is loaded by the first histogram, not with the modules (it cost every run 7 MB of resident memory)', () => {
    expect(probe([BIN, ...LOAD_A_RUN]).hdr).toBe(false);
    const histogram = JSON.stringify(pathToFileURL(join(ROOT, 'dist/src/core/histogram.js')).href);
    expect(probe(['--input-type=module', '-e', `(await import(${histogram})).newHistogram()`]).hdr).toBe(true);
  });

  it('without them the same load grows the young generation (what the settings prevent)', () => {
    // The same modules loaded without bin's settings: V8 doubles the semi-spaces as objects survive.
    expect(probe(LOAD_A_RUN_WITHOUT_BIN).newSpace).toBeGreaterThan(8 * MIB);
  });
});
