// Check ids are stable and meaningful: unique, and each equal to its file name (design.md, style rule 2).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../suites/index.js';
import { assertUniqueIds } from '../src/runner/registry.js';
import { ROOT } from './helpers/cli.js';

describe('check registry', () => {
  it('has no duplicate ids', () => {
    expect(() => assertUniqueIds(CHECKS)).not.toThrow();
    expect(() => assertUniqueIds([CHECKS[0], CHECKS[0]])).toThrow(/duplicate check id/);
  });
  it('names each check after its file, suites/<area folder>/<id>.ts', () => {
    const missing = CHECKS.filter((c) => !['messages', 'streaming', 'discovery', 'errors', 'native', 'chat', 'service', 'apps', 'client'].some((dir) => existsSync(join(ROOT, 'suites', dir, `${c.id}.ts`))));
    expect(missing.map((c) => c.id)).toEqual([]);
  });
});
