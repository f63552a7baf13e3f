#!/usr/bin/env node
// Makes catalog/requirements.json from the requirement catalog, ../shared/requirements.md
// (beside the project root): every row of its tables, with its section, level and text.
//   node scripts/catalog.mjs            write catalog/requirements.json
//   node scripts/catalog.mjs --check    exit 1 when the file differs from what the catalog gives
// test/catalog.test.ts runs the check, so `npm test` fails when the two drift apart.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SOURCE = fileURLToPath(new URL('../../shared/requirements.md', import.meta.url));
export const TARGET = `${ROOT}catalog/requirements.json`;

/** The requirements of the markdown catalog, in document order. */
export function parseCatalog(markdown) {
  const out = [];
  let section = '';
  for (const line of markdown.split('\n')) {
    const h = /^## (.+)$/.exec(line);
    if (h) {
      section = h[1].trim();
      continue;
    }
    // | ID | Level | Requirement |
    const row = /^\|\s*([A-Z]+(?:-[A-Z0-9]+)*-\d+)\s*\|\s*(MUST|SHOULD|INFO)\s*\|\s*(.+?)\s*\|\s*$/.exec(line);
    if (row) out.push({ id: row[1], level: row[2], section, text: row[3].replace(/\\\|/g, '|') });
  }
  const ids = new Set();
  for (const r of out) {
    if (ids.has(r.id)) throw new Error(`requirement ${r.id} appears twice`);
    ids.add(r.id);
  }
  return out;
}

export function render(markdown) {
  return `${JSON.stringify({ source: 'shared/requirements.md', requirements: parseCatalog(markdown) }, null, 1)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const want = render(readFileSync(SOURCE, 'utf8'));
  if (process.argv.includes('--check')) {
    const have = readFileSync(TARGET, 'utf8');
    if (have !== want) {
      console.error('catalog/requirements.json differs from ../shared/requirements.md: run `node scripts/catalog.mjs`');
      process.exit(1);
    }
  } else {
    writeFileSync(TARGET, want);
    console.log(`wrote ${TARGET}: ${JSON.parse(want).requirements.length} requirements`);
  }
}
