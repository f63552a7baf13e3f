#!/usr/bin/env node
// Writes what is made from the option table (src/config/options.ts and src/config/commands.ts):
// docs/cli.md, the CLI reference, and schemas/gwc.schema.json, the JSON Schema of gwc.yaml that
// editors complete from. Run after `npm run build` (`npm run docs:cli` does both).
// test/unit/config/options.test.ts fails when either differs from the table.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cliReferenceMarkdown } from '../dist/src/config/commands.js';
import { configSchemaText } from '../dist/src/config/options.js';

mkdirSync(new URL('../docs/', import.meta.url), { recursive: true });
writeFileSync(new URL('../docs/cli.md', import.meta.url), cliReferenceMarkdown());
mkdirSync(new URL('../schemas/', import.meta.url), { recursive: true });
writeFileSync(new URL('../schemas/gwc.schema.json', import.meta.url), configSchemaText());
console.log('docs/cli.md and schemas/gwc.schema.json written');
