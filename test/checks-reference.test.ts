// The checks reference, docs/checks.md: generated from the checks, the catalog and the one table
// of fixes (suites/fixes.ts) by scripts/checks-reference.mjs. Fails when a check has no fix, a
// fix names no check, or the file is stale.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../suites/index.js';
import { CHECK_FIXES } from '../suites/fixes.js';
import { checksReference } from '../scripts/checks-reference.mjs';
import { ROOT } from './helpers/cli.js';

const catalog = JSON.parse(readFileSync(join(ROOT, 'catalog', 'requirements.json'), 'utf8')) as { requirements: Array<{ id: string; level: string; text: string }> };

describe('the fixes table (suites/fixes.ts)', () => {
  it('has advice for every check, and no entry for a check that does not exist', () => {
    const ids = CHECKS.map((c) => c.id);
    expect(ids.filter((id) => !(id in CHECK_FIXES)), 'checks without a fix').toEqual([]);
    expect(Object.keys(CHECK_FIXES).filter((k) => !ids.includes(k)), 'fixes of no check').toEqual([]);
    for (const [id, fix] of Object.entries(CHECK_FIXES)) expect(fix.trim().length, id).toBeGreaterThan(20);
  });
});

describe('docs/checks.md', () => {
  const made = checksReference(CHECKS, catalog, CHECK_FIXES);

  it('is what scripts/checks-reference.mjs makes (run `npm run build && node scripts/checks-reference.mjs` after changing a check, the catalog or a fix)', () => {
    expect(readFileSync(join(ROOT, 'docs', 'checks.md'), 'utf8')).toBe(made);
  });

  it('has one anchor per check, and every requirement a check cites is in the catalog', () => {
    for (const c of CHECKS) expect(made.split(`<a id="${c.id}"></a>`).length - 1, c.id).toBe(1);
    expect(made).not.toContain('not in the catalog');
    expect(made).not.toContain('(no advice yet)');
  });

  it('turns section references of the interface document into nothing, and keeps the rest of the sentence', () => {
    const one = checksReference(
      [{ id: 'a.b', title: 'T', area: 'a', level: 'MUST', profile: 'default', requirements: ['X-1'], requirement: 'Holds (X-1; spec 4 rule 2, 7). Also (relational database, 2.7) and (5, 7), on 404 (404, 501).' }],
      { requirements: [{ id: 'X-1', level: 'MUST', text: 'Text (4, 9.1) whole (2.1; audited)' }] },
      { 'a.b': 'Fix it.' },
    );
    expect(one).toContain('**What it proves.** Holds. Also (relational database, 2.7) and, on 404 (404, 501).');
    expect(one).toContain('- X-1 (MUST): Text whole (audited)');
    expect(one).toContain('**How to fix a failure.** Fix it.');
  });
});
