// The heap settings of the gw-conformance process (src/core/heap.ts): bin/gw-conformance.js
// applies them before the harness's modules load, and they keep V8's young generation at its
// initial size. Measured on the new space's committed size after loading the whole CLI
// (`--version` loads every module a run needs), with and without the settings.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HEAP_FLAGS } from '../src/core/heap.js';
import { ROOT } from './helpers/cli.js';

/** Prints the new space's committed size (bytes) at exit, from inside the CLI's process. */
const REPORT_NEW_SPACE = `data:text/javascript,${encodeURIComponent(
  "import v8 from 'node:v8'; process.on('exit', () => process.stderr.write('NEW_SPACE ' + v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size + '\\n'));",
)}`;

function newSpaceAfter(script: string[], env: NodeJS.ProcessEnv = {}): number {
  const r = spawnSync(process.execPath, ['--import', REPORT_NEW_SPACE, ...script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
  const m = /NEW_SPACE (\d+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`exit ${r.status}: ${r.stderr.slice(-400)}`);
  return Number(m[1]);
}

const MIB = 1024 * 1024;

describe('heap settings', () => {
  it('are the young-generation growth factor and baseline-only WebAssembly', () => {
    expect(HEAP_FLAGS).toEqual(['--semi-space-growth-factor=1', '--liftoff-only']);
  });

  it('bin/gw-conformance.js keeps the young generation at its initial size while every module loads', () => {
    // With the settings: two semi-spaces of 1 MiB (and their page headers).
    expect(newSpaceAfter([join(ROOT, 'bin/gw-conformance.js'), '--version'])).toBeLessThanOrEqual(3 * MIB);
  });

  it('without them the same load grows the young generation (what the settings prevent)', () => {
    // The same modules loaded without bin's settings: V8 doubles the semi-spaces as objects survive.
    expect(newSpaceAfter(['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/src/cli.js')).href)})`])).toBeGreaterThan(8 * MIB);
  });
});
