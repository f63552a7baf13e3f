// The checks reference, docs/checks.md: generated from the checks (each with its fix) and the
// catalog by scripts/checks-reference.mjs. Fails when the file is stale, a check has no anchor or
// cites a requirement the catalog lacks. That every check has a fix: test/unit/suites/check-whole.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROTOCOLS, RECORDS } from '../../../src/protocols/index.js';
import { CHECKS } from '../../../suites/index.js';
import { checksReference } from '../../../scripts/checks-reference.mjs';
import { ROOT } from '../../helpers/cli.js';

const catalog = JSON.parse(readFileSync(join(ROOT, 'catalog', 'requirements.json'), 'utf8')) as { requirements: Array<{ id: string; level: string; text: string }> };

describe('docs/checks.md', () => {
  const made = checksReference(CHECKS, catalog, PROTOCOLS.map((p) => RECORDS[p]));

  it('is what scripts/checks-reference.mjs makes (run `npm run build && node scripts/checks-reference.mjs` after changing a check, the catalog or a fix)', () => {
    expect(readFileSync(join(ROOT, 'docs', 'checks.md'), 'utf8')).toBe(made);
  });

  it('has one anchor per check, and every requirement a check cites is in the catalog', () => {
    for (const c of CHECKS) expect(made.split(`<a id="${c.id}"></a>`).length - 1, c.id).toBe(1);
    expect(made).not.toContain('not in the catalog');
    expect(made).not.toContain('(no advice yet)');
  });

  it('lists every protocol, from its record, with the count of its checks', () => {
    const section = made.slice(made.indexOf('\n## Protocols\n'), made.indexOf('\n## ', made.indexOf('\n## Protocols\n') + 3));
    for (const p of PROTOCOLS) expect(section, p).toContain(`| \`${p}\` | ${RECORDS[p].title} | \`${RECORDS[p].defaultCredential}\` |`);
    expect(section.split('\n').filter((l) => l.startsWith('| `'))).toHaveLength(PROTOCOLS.length);
    expect(section).toContain(`| ${CHECKS.filter((c) => c.protocol === 'chat').length} |`);
  });

  it('turns section references of the interface document into nothing, and keeps the rest of the sentence', () => {
    const one = checksReference(
      [{ id: 'a.b', title: 'T', area: 'a', level: 'MUST', profile: 'default', requirements: ['X-1'], requirement: 'Holds (X-1; spec 4 rule 2, 7). Also (relational database, 2.7) and (5, 7), on 404 (404, 501).', fix: 'Fix it.' }],
      { requirements: [{ id: 'X-1', level: 'MUST', text: 'Text (4, 9.1) whole (2.1; audited)' }] },
    );
    expect(one).toContain('**What it proves.** Holds. Also (relational database, 2.7) and, on 404 (404, 501).');
    expect(one).toContain('- X-1 (MUST): Text whole (audited)');
    expect(one).toContain('**How to fix a failure.** Fix it.');
  });
});
