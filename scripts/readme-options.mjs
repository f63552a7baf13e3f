#!/usr/bin/env node
// Writes the README's flag table from the option table (src/config/options.ts), between the
// `options:start` and `options:end` markers. Run after `npm run build`. test/options.test.ts
// fails when the README and the table differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { optionsMarkdown } from '../dist/src/config/commands.js';

const file = new URL('../README.md', import.meta.url);
const text = readFileSync(file, 'utf8');
const re = /(<!-- options:start -->\n)[\s\S]*?(<!-- options:end -->)/;
if (!re.test(text)) throw new Error('README.md has no options:start/options:end markers');
writeFileSync(file, text.replace(re, `$1${optionsMarkdown()}\n$2`));
console.log('README.md: flag table written');
