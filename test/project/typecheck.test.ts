// The tests are type-checked too (vitest strips types without checking them): `tsc` over
// tsconfig.test.json (src, mocks, reference, suites, bench and test), as a test so that it runs
// beside the other untimed files instead of before them.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/**
 * A guard against a compiler that hangs: the check takes about 40 s of CPU, 184 s of wall time
 * seen with both cores taken by two CPU hogs beside the suite (the test then timed out at 120 s);
 * ten minutes leaves three times that.
 */
const TSC_LIMIT_MS = 600_000;

it('the tests and everything they import type-check (tsconfig.test.json)', { timeout: TSC_LIMIT_MS }, async () => {
  const r = await new Promise<{ code: number | null; out: string }>((resolve) =>
    execFile(process.execPath, [tsc, '-p', 'tsconfig.test.json'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (e, stdout, stderr) => resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` })),
  );
  expect(r.out.trim()).toBe('');
  expect(r.code).toBe(0);
});
