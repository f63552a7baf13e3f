// catalog/requirements.json follows docs/requirements.md, and every check cites ids of it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types
import { parseCatalog, render, SOURCE, TARGET } from '../../../scripts/catalog.mjs';
import { CHECKS } from '../../../suites/index.js';

interface Entry {
  id: string;
  level: string;
  section: string;
  text: string;
  why: string;
}

const md = readFileSync(SOURCE, 'utf8');
const parsed = (): Entry[] => parseCatalog(md);

describe('the requirement catalog', () => {
  it('catalog/requirements.json is what docs/requirements.md gives (regenerate with `node scripts/catalog.mjs`)', () => {
    expect(readFileSync(TARGET, 'utf8')).toBe(render(md));
    expect(JSON.parse(readFileSync(TARGET, 'utf8')).source).toBe('docs/requirements.md');
  });

  it('reads every requirement heading, each with a section, a text and a reason', () => {
    const entries = parsed();
    expect(entries.length).toBe((md.match(/^### \S+ · /gm) ?? []).length);
    expect(entries.length).toBe(149);
    for (const e of entries) {
      expect(e.section, e.id).not.toBe('');
      expect(e.text.length, e.id).toBeGreaterThan(10);
      expect(e.why.length, e.id).toBeGreaterThan(10);
    }
    const first = entries.find((e) => e.id === 'MSG-PATH-1')!;
    expect(first).toMatchObject({ level: 'MUST', section: 'A. Messages protocol through a gateway' });
    expect(first.text).toMatch(/^`POST \/v1\/messages`.*no lost path\.$/);
  });

  it('a changed level, text or reason changes the catalog', () => {
    expect(render(md.replace('### MSG-PATH-1 · MUST', '### MSG-PATH-1 · SHOULD'))).not.toBe(render(md));
    expect(render(md.replace('no lost path.', 'no path lost.'))).not.toBe(render(md));
    expect(render(md.replace('Why: clients set only the host root', 'Why: clients set the host root'))).not.toBe(render(md));
  });

  it('refuses a malformed requirement with its id: no reason, a second text paragraph, an unknown level, an id twice', () => {
    expect(() => parseCatalog(md.replace(/\nWhy: clients set only the host root[^]*?\n\n/, '\n\n'))).toThrow(/MSG-PATH-1/);
    expect(() => parseCatalog(md.replace('no lost path.\n', 'no lost path.\n\nA second paragraph.\n'))).toThrow(/MSG-PATH-1/);
    expect(() => parseCatalog(md.replace('### MSG-PATH-1 · MUST', '### MSG-PATH-1 · MAY'))).toThrow(/MSG-PATH-1: unknown level/);
    expect(() => parseCatalog(md.replace('### MSG-BODY-1 · MUST', '### MSG-PATH-1 · MUST'))).toThrow(/MSG-PATH-1 appears twice/);
    expect(() => parseCatalog(md.replace('### MSG-PATH-1 · MUST', '### MSG-PATH-1 MUST'))).toThrow(/not "### ID · LEVEL"/);
  });

  it('speaks in its own words: no pointers to documents outside the repository', () => {
    for (const e of parsed()) {
      expect(`${e.text} ${e.why}`, e.id).not.toMatch(/\bspec\b|\bissue \d|design\.md|protocols\.md|\.\.\/shared/);
    }
  });

  it('every check cites requirements the catalog has', () => {
    const ids = new Set(parsed().map((r) => r.id));
    for (const c of CHECKS) for (const id of c.requirements) expect(ids.has(id), `${c.id} cites ${id}`).toBe(true);
  });
});
