// The identity of the harness build that ran: a digest of its compiled code (dist/src, suites,
// mocks, reference) and its package version, so that load shards of different builds under one
// version number are told apart by merge-reports.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VERSION } from './paths.js';

/** The compiled tree this module is part of (dist/), or the source tree when run from it. */
const TREE = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FOLDERS = ['src', 'suites', 'mocks', 'reference'];

function filesUnder(dir: string): string[] {
  let entries: Array<{ name: string; isDirectory(): boolean }>;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : /\.(js|ts|json)$/.test(e.name) && !e.name.endsWith('.map') ? [join(dir, e.name)] : []));
}

let cached: string | undefined;

/** `VERSION+sha256:<first 16 hex>` of the code files, in path order; computed once a process. */
export function buildId(): string {
  if (cached) return cached;
  const h = createHash('sha256');
  for (const f of FOLDERS.flatMap((d) => filesUnder(join(TREE, d))).sort()) {
    h.update(relative(TREE, f));
    h.update('\0');
    h.update(readFileSync(f));
  }
  return (cached = `${VERSION}+${h.digest('hex').slice(0, 16)}`);
}
