#!/usr/bin/env node
// Writes the generated matrix of docs/real-gateways.md (between its marker comments) from the
// committed verdicts of the real gateways (examples/matrix/real-gateways.json). Run after
// `npm run build` (`npm run docs:matrix` does both); test/matrix-docs.test.ts fails when they differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { realGatewaySection, withSection } from '../dist/src/report/matrix-examples.js';
import { CHECKS } from '../dist/suites/index.js';

const doc = new URL('../docs/real-gateways.md', import.meta.url);
const facts = new Map(CHECKS.map((c) => [c.id, { title: c.title, area: c.area, level: c.level }]));
writeFileSync(doc, withSection(readFileSync(doc, 'utf8'), realGatewaySection(facts)));
console.log('docs/real-gateways.md: the matrix of the real gateways written');
