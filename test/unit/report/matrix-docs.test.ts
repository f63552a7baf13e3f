// The real gateways' matrix in docs/real-gateways.md is made from the verdicts the nginx and
// HAProxy tests assert (examples/matrix/real-gateways.json names them): the doc's section must be
// what `npm run docs:matrix` writes, every verdict file must be one its test reads, and every
// check it names must exist.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestRuns, realGatewayMatrix, realGatewaySection, sectionOf, withSection } from '../../../src/report/across-runs/matrix-examples.js';
import { CHECKS } from '../../../suites/index.js';
import { ROOT } from '../../helpers/cli.js';

const facts = new Map(CHECKS.map((c) => [c.id, { title: c.title, area: c.area, level: c.level }]));
const doc = () => readFileSync(path.join(ROOT, 'docs', 'real-gateways.md'), 'utf8');

describe('the real gateways\' matrix (docs/real-gateways.md)', () => {
  it('the doc\'s section is the generated one (run `npm run docs:matrix` after changing a verdict)', () => {
    expect(sectionOf(doc())).toBe(realGatewaySection(facts));
  });

  it('a table edited by hand differs from the generated one', () => {
    const edited = doc().replace('| `messages.path.preserved` | MUST | pass |', '| `messages.path.preserved` | MUST | fail |');
    expect(edited).not.toBe(doc());
    expect(sectionOf(edited)).not.toBe(realGatewaySection(facts));
    expect(sectionOf(withSection(edited, realGatewaySection(facts)))).toBe(realGatewaySection(facts));
  });

  it('holds at least six gateways and configs, each verdict file one its test asserts, every check known', () => {
    const runs = manifestRuns();
    expect(runs.length).toBeGreaterThanOrEqual(6);
    for (const r of runs) {
      const test = readFileSync(path.join(ROOT, r.test), 'utf8');
      expect(test, `${r.test} reads ${r.verdicts}`).toContain(path.basename(r.verdicts).replace(/^expected-(.*)\.json$/, '$1'));
      expect(readFileSync(path.join(ROOT, path.dirname(r.verdicts), r.config), 'utf8').length, r.config).toBeGreaterThan(0);
    }
    const m = realGatewayMatrix(facts);
    for (const c of m.checks) expect(facts.has(c.id), `${c.id} is a check`).toBe(true);
    // Each column holds exactly its verdict file's outcomes.
    runs.forEach((r, i) => {
      const v = JSON.parse(readFileSync(path.join(ROOT, r.verdicts), 'utf8')) as { exitCode: number; outcomes: Record<string, string> };
      const column = Object.fromEntries(m.checks.filter((c) => c.cells[i].value !== 'not-applicable').map((c) => [c.id, c.cells[i].value]));
      expect(column).toEqual(v.outcomes);
      expect(m.runs[i].exitCode).toBe(v.exitCode);
    });
  });
});
