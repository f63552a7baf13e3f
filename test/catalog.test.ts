// catalog/requirements.json follows ../shared/requirements.md, and every check cites ids of it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types
import { parseCatalog, render, SOURCE, TARGET } from '../scripts/catalog.mjs';
import { CHECKS } from '../suites/index.js';

describe('the requirement catalog', () => {
  it('catalog/requirements.json is what ../shared/requirements.md gives (regenerate with `node scripts/catalog.mjs`)', () => {
    expect(readFileSync(TARGET, 'utf8')).toBe(render(readFileSync(SOURCE, 'utf8')));
  });

  it('parses every row of every section, and a changed row changes the catalog', () => {
    const md = readFileSync(SOURCE, 'utf8');
    const ids = parseCatalog(md).map((r: { id: string }) => r.id);
    expect(ids.length).toBe((md.match(/^\| [A-Z]+(-[A-Z0-9]+)*-\d+ \|/gm) ?? []).length);
    expect(render(md.replace('| MSG-PATH-1 | MUST |', '| MSG-PATH-1 | SHOULD |'))).not.toBe(render(md));
  });

  it('every check cites requirements the catalog has', () => {
    const ids = new Set(parseCatalog(readFileSync(SOURCE, 'utf8')).map((r: { id: string }) => r.id));
    for (const c of CHECKS) for (const id of c.requirements) expect(ids.has(id), `${c.id} cites ${id}`).toBe(true);
  });
});
