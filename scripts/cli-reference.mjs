#!/usr/bin/env node
// Writes docs/cli.md, the CLI reference, from the option table (src/config/options.ts and
// src/config/commands.ts). Run after `npm run build` (`npm run docs:cli` does both).
// test/options.test.ts fails when docs/cli.md and the table differ.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cliReferenceMarkdown } from '../dist/src/config/commands.js';

const file = new URL('../docs/cli.md', import.meta.url);
mkdirSync(new URL('../docs/', import.meta.url), { recursive: true });
writeFileSync(file, cliReferenceMarkdown());
console.log('docs/cli.md written');
