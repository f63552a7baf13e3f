#!/usr/bin/env node
// Writes the protocol list of the run report's JSON Schema (src/report/shared/run-report.schema.json,
// `declared.protocols`) from the protocol records, as schemas/gwc.schema.json is written from the
// option table: the list is the registry's (src/protocols/), one place. Run after `npm run build`.
// test/unit/protocols/report-schema.test.ts fails when the shipped schema's list differs.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REPORT_SCHEMA = fileURLToPath(new URL('../src/report/shared/run-report.schema.json', import.meta.url));
export const REGENERATE = 'npm run build && node scripts/report-schemas.mjs';

const LIST = /("protocols": \{\s*"type": "array",\s*"items": \{\s*"enum": \[)(\s*)([^\]]*?)(\s*)\]/g;

/** The schema's text with `declared.protocols` listing `protocols` (the rest of the text untouched). */
export function withProtocols(text, protocols) {
  const found = [...text.matchAll(LIST)];
  if (found.length !== 1) throw new Error(`run-report.schema.json: expected one "protocols" enum, found ${found.length}`);
  return text.replace(LIST, (_, head, lead, _items, tail) => `${head}${lead}${protocols.map((p) => JSON.stringify(p)).join(`,${lead}`)}${tail}]`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { PROTOCOLS } = await import('../dist/src/protocols/index.js');
  writeFileSync(REPORT_SCHEMA, withProtocols(readFileSync(REPORT_SCHEMA, 'utf8'), PROTOCOLS));
  console.log('src/report/shared/run-report.schema.json: declared.protocols written from the protocol records');
}
