#!/usr/bin/env node
// Turns a capture of a real client on a protocol other than messages (`gw-conformance mock
// --capture FILE`) into a fixture under test/fixtures/captures/: the request lines, headers and
// JSON bodies of the requests whose path matches, as sent (key order kept). Credentials were
// masked by the capture; the client's own prose (any string of 160 characters or more: system
// prompts, instructions, tool descriptions) is replaced by short text of ours that says how long
// the original was, and volatile identifiers (UUIDs, 64-hex device ids, the turn's start time)
// by fixed ones.
//
// Usage: node scripts/capture-fixture.mjs CAPTURE.jsonl NAME PATH-REGEX [CLIENT-DESCRIPTION]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const [file, name, pathRe, how = ''] = process.argv.slice(2);
if (!file || !name || !pathRe) {
  process.stderr.write('usage: node scripts/capture-fixture.mjs CAPTURE.jsonl NAME PATH-REGEX [HOW]\n');
  process.exit(2);
}
const re = new RegExp(pathRe);
const picked = readFileSync(file, 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l))
  .filter((l) => re.test(l.url))
  // One request per method and path: a client's retries of the same request are left out.
  .filter((l, i, all) => all.findIndex((o) => o.method === l.method && o.url === l.url) === i);
if (!picked.length) {
  process.stderr.write(`no request in ${file} has a path matching ${pathRe}\n`);
  process.exit(2);
}

const uuids = new Map();
const fixedId = (id) => {
  if (!uuids.has(id)) uuids.set(id, `00000000-0000-4000-8000-${String(uuids.size + 1).padStart(12, '0')}`);
  return uuids.get(id);
};
const volatile = (s) =>
  s
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, fixedId)
    .replace(/\b[0-9a-f]{64}\b/g, 'c0de'.repeat(16))
    .replace(/("turn_started_at_unix_ms":)\d+/g, '$10');
const own = (where, original) => `gw-conformance fixture: ${where} (the client sent ${original.length} characters of its own text here)`;

/** Every long prose string replaced, every other value kept (volatile ids fixed). */
function clean(v, where) {
  if (typeof v === 'string') return v.length >= 160 && !/^[{[]/.test(v) ? own(where, v) : volatile(v);
  if (Array.isArray(v)) return v.map((x, i) => clean(x, `${where}[${i}]`));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clean(x, `${where}.${k}`)]));
  return v;
}

function header([k, v]) {
  const n = k.toLowerCase();
  if (n === 'host') return [k, '127.0.0.1:18080'];
  if (n === 'content-length') return [k, '(per body)'];
  return [k, volatile(v)];
}

const record = {
  client: name,
  how,
  requests: picked.map((l) => ({ method: l.method, url: l.url, status: l.status ?? null, headers: l.headers.map(header), body: l.json === undefined ? null : clean(l.json, 'body') })),
};
const out = path.join(ROOT, 'test', 'fixtures', 'captures', `${name}.json`);
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(record, null, 1)}\n`);
process.stdout.write(`wrote ${path.relative(ROOT, out)} (${picked.length} requests)\n`);
