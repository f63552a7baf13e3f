// Figures and lists the documentation states about the code, held to the code: the bounds of
// the client and the recording upstream, the size of the hostile corpus, the areas, the layer
// diagram and the import rules. A change to one of them fails here until the docs say it too.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BODY_KEEP } from '../../src/client/bounded.js';
import { ANSWER_MAX } from '../../src/client/answer.js';
import { LINE_MAX, STREAM_MAX } from '../../src/client/collect.js';
import { RECORD_KEEP } from '../../src/upstream/record.js';
import { CHECKS } from '../../suites/index.js';
import { HOSTILE_CASES } from '../helpers/hostile-gateway.js';
import { ROOT } from '../helpers/cli.js';

const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');
const MIB = 1024 * 1024;
/** The one number the pattern's group captures in `text` (the claim must be there, once). */
function claimed(text: string, pattern: RegExp): number {
  const all = [...text.matchAll(new RegExp(pattern.source, 'g'))];
  expect(all.map((m) => m[0]), String(pattern)).toHaveLength(1);
  return Number(all[0][1].replace(/,/g, ''));
}
/** The lines of a markdown section, from its heading to the next heading of its level. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const level = heading.match(/^#+/)![0];
  const rest = text.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n${level} `));
  return end < 0 ? rest : rest.slice(0, end);
}

describe('docs/how-it-works.md states the bounds the code has', () => {
  const doc = read('docs/how-it-works.md');

  it('what the client keeps of a body and of a stream, and what the recording upstream keeps of a request', () => {
    expect(claimed(doc, /keeps the first (\d+) MiB of a body/)).toBe(BODY_KEEP / MIB);
    expect(claimed(doc, /a stream is read to\s+(\d+) MiB/)).toBe(STREAM_MAX / MIB);
    expect(claimed(doc, /reads a whole\s+answer to (\d+) MiB at most/)).toBe(ANSWER_MAX / MIB);
    expect(claimed(doc, /a line to (\d+) MiB at most/)).toBe(LINE_MAX / MIB);
    expect(claimed(doc, /the recording upstream keeps the first (\d+) MiB of a request/)).toBe(RECORD_KEEP / MIB);
  });

  it('the size of the hostile corpus', () => {
    expect(claimed(doc, /hostile-gateway\.ts`, (\d+) cases\)/)).toBe(HOSTILE_CASES.length);
  });

  it('lists every area of the checks, and no other', () => {
    const listed = [...section(doc, '## The areas').matchAll(/\*\*([a-z][a-z0-9]*)\*\*/g)].map((m) => m[1]);
    expect([...new Set(listed)].sort()).toEqual([...new Set(CHECKS.map((c) => c.area))].sort());
  });
});

describe("CONTRIBUTING's layout is the code's", () => {
  const doc = read('CONTRIBUTING.md');
  const layout = section(doc, '## Layout and import rules');

  it('the layer diagram names every folder of src/', () => {
    const diagram = layout.slice(layout.indexOf('```text'), layout.indexOf('```', layout.indexOf('```text') + 7));
    const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `src/${d.name}/`);
    expect(folders.filter((f) => !diagram.includes(f))).toEqual([]);
  });

  it('the layer diagram names cli/, and the layout names every folder of cli/', () => {
    const diagram = layout.slice(layout.indexOf('```text'), layout.indexOf('```', layout.indexOf('```text') + 7));
    expect(diagram).toMatch(/^ 1  cli\//m);
    const folders = readdirSync(join(ROOT, 'cli'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    expect(folders.length).toBeGreaterThan(10);
    expect(folders.filter((f) => !layout.includes(`cli/${f}/`) && !layout.includes(`\`${f}/\``))).toEqual([]);
  });

  it('the table of import rules is the rules dependency-cruiser enforces', () => {
    const rules = (createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as { forbidden: Array<{ name: string }> }).forbidden.map((r) => r.name);
    const table = [...layout.matchAll(/^\| ([a-z-]+) \| /gm)].map((m) => m[1]).filter((n) => n !== 'rule');
    expect(table.sort()).toEqual([...rules].sort());
  });
});

describe('CONTRIBUTING says which src/ folders suites/, mocks/ and reference/ import', () => {
  const doc = read('CONTRIBUTING.md');
  /** The src/ folders the .ts files under `dir` import, by their import lines. */
  function imported(dir: string): string[] {
    const found = new Set<string>();
    const walk = (d: string): void => {
      for (const e of readdirSync(join(ROOT, d), { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name));
        else if (e.name.endsWith('.ts')) for (const m of read(join(d, e.name)).matchAll(/from '(?:\.\.\/)+src\/([a-z-]+)\//g)) found.add(`src/${m[1]}`);
      }
    };
    walk(dir);
    return [...found].sort();
  }
  for (const dir of ['suites', 'mocks', 'reference']) {
    it(`${dir}/`, () => {
      const said = doc.match(new RegExp(`\`${dir}/\` imports ([^;)]+)`));
      expect(said, `CONTRIBUTING names what ${dir}/ imports`).not.toBeNull();
      expect([...said![1].matchAll(/`(src\/[a-z-]+)`/g)].map((m) => m[1]).sort()).toEqual(imported(dir));
    });
  }
});
