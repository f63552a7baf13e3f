// The tests are type-checked too (vitest strips types without checking them): `tsc` over
// tsconfig.test.json (src, mocks, reference, suites, bench and test), as a test so that it runs
// beside the other untimed files instead of before them.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

it('the tests and everything they import type-check (tsconfig.test.json)', { timeout: 120_000 }, () => {
  const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.test.json'], { cwd: root, encoding: 'utf8' });
  expect(`${r.stdout}${r.stderr}`.trim()).toBe('');
  expect(r.status).toBe(0);
});
