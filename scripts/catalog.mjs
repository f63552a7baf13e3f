#!/usr/bin/env node
// Makes catalog/requirements.json from the requirement catalog, docs/requirements.md: every
// requirement with its id, level, section, text and the reason it exists (`why`). The format is
// described at the top of docs/requirements.md.
//   node scripts/catalog.mjs            write catalog/requirements.json
//   node scripts/catalog.mjs --check    exit 1 when the file differs from what the catalog gives
// test/unit/suites/catalog.test.ts runs the check, so the tests fail when the two drift apart.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SOURCE_NAME = 'docs/requirements.md';
export const SOURCE = `${ROOT}${SOURCE_NAME}`;
export const TARGET = `${ROOT}catalog/requirements.json`;

const HEADING = /^### (\S+) · (\S+)\s*$/;
const ID = /^[A-Z]+(?:-[A-Z0-9]+)*-\d+$/;
const LEVELS = new Set(['MUST', 'SHOULD', 'INFO']);

/** Paragraphs (runs of non-blank lines, joined by a space) between one heading and the next. */
function paragraphs(lines) {
  const out = [];
  let cur = [];
  for (const l of [...lines, '']) {
    if (l.trim()) cur.push(l.trim());
    else if (cur.length) {
      out.push(cur.join(' '));
      cur = [];
    }
  }
  return out;
}

/** One requirement from its heading and the lines under it; throws on any other shape. */
function requirement(heading, body, section) {
  const [, id, level] = HEADING.exec(heading);
  const fail = (why) => {
    throw new Error(`${SOURCE_NAME}: requirement ${id}: ${why}`);
  };
  if (!ID.test(id)) fail('the id is not of the form AREA-N');
  if (!LEVELS.has(level)) fail(`unknown level ${level} (MUST, SHOULD or INFO)`);
  if (!section) fail('it stands before the first ## section');
  const paras = paragraphs(body);
  if (paras.length !== 2 || paras[0].startsWith('Why:') || !paras[1].startsWith('Why:')) {
    fail('expected one text paragraph, then one paragraph starting with "Why:"');
  }
  const why = paras[1].slice('Why:'.length).trim();
  if (!why) fail('the "Why:" paragraph is empty');
  return { id, level, section, text: paras[0], why };
}

/** The requirements of the markdown catalog, in document order. */
export function parseCatalog(markdown) {
  const out = [];
  let section = '';
  let open = null; // { heading, body, section } of the requirement being read
  const close = () => {
    if (open) out.push(requirement(open.heading, open.body, open.section));
    open = null;
  };
  for (const line of markdown.split(/\r?\n/)) {
    if (line.startsWith('```')) throw new Error(`${SOURCE_NAME}: code fences are not part of the format`);
    if (/^#{1,2} /.test(line)) {
      close();
      section = line.startsWith('## ') ? line.slice(3).trim() : '';
    } else if (line.startsWith('### ')) {
      close();
      if (!HEADING.test(line)) throw new Error(`${SOURCE_NAME}: "${line}" is not "### ID · LEVEL"`);
      open = { heading: line, body: [], section };
    } else if (/^#{4,} /.test(line)) {
      throw new Error(`${SOURCE_NAME}: "${line}": only ## sections and ### requirements are headings`);
    } else if (open) open.body.push(line);
  }
  close();
  const ids = new Set();
  for (const r of out) {
    if (ids.has(r.id)) throw new Error(`${SOURCE_NAME}: requirement ${r.id} appears twice`);
    ids.add(r.id);
  }
  return out;
}

export function render(markdown) {
  return `${JSON.stringify({ source: SOURCE_NAME, requirements: parseCatalog(markdown) }, null, 1)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const want = render(readFileSync(SOURCE, 'utf8'));
    if (process.argv.includes('--check')) {
      if (readFileSync(TARGET, 'utf8') !== want) {
        console.error(`catalog/requirements.json differs from ${SOURCE_NAME}: run \`node scripts/catalog.mjs\``);
        process.exit(1);
      }
    } else {
      writeFileSync(TARGET, want);
      console.log(`wrote ${TARGET}: ${JSON.parse(want).requirements.length} requirements`);
    }
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(2);
  }
}
