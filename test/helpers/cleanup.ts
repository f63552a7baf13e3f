// What a test file starts and makes (gateways, servers, temporary folders), undone after all its
// tests, last made first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export function cleanupAfterAll(): { cleanup: Array<() => unknown>; tempDir(prefix: string): string } {
  const cleanup: Array<() => unknown> = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });
  const tempDir = (prefix: string) => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    cleanup.push(() => rmSync(d, { recursive: true, force: true }));
    return d;
  };
  return { cleanup, tempDir };
}
