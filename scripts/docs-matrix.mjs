#!/usr/bin/env node
// Writes the generated matrix of docs/real-gateways.md (between its marker comments) from the
// committed verdicts of the real gateways (examples/matrix/real-gateways.json). Run after
// `npm run build` (`npm run docs:matrix` does both); test/unit/report/matrix-docs.test.ts fails when they differ.
// `--html FILE` also writes the same matrix as the `matrix` command's HTML page.
import { readFileSync, writeFileSync } from 'node:fs';
import { realGatewayMatrix, realGatewaySection, withSection } from '../dist/src/report/across-runs/matrix-examples.js';
import { matrixHtml } from '../dist/src/report/across-runs/matrix-html.js';
import { CHECKS } from '../dist/suites/index.js';

const doc = new URL('../docs/real-gateways.md', import.meta.url);
const facts = new Map(CHECKS.map((c) => [c.id, { title: c.title, area: c.area, level: c.level }]));
writeFileSync(doc, withSection(readFileSync(doc, 'utf8'), realGatewaySection(facts)));
console.log('docs/real-gateways.md: the matrix of the real gateways written');
const at = process.argv.indexOf('--html');
if (at > 0) {
  const file = process.argv[at + 1];
  if (!file) {
    console.error('docs-matrix: --html needs a file');
    process.exit(2);
  }
  writeFileSync(file, matrixHtml(realGatewayMatrix(facts)));
  console.log(`${file}: the same matrix as HTML`);
}
