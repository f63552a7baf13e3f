#!/usr/bin/env node
// Prints what each reference-gateway fault actually fails (build first: npm run build).
// Use it to review a new fault; the expectation files in test/detection/ are written by hand
// from this output after reading each failure, never copied blindly.
//   node scripts/detection.mjs [fault ...] [--seed N]
import { readdirSync, readFileSync } from 'node:fs';
import { DEMO_UPSTREAM_TIMEOUT_MS, ReferenceGateway } from '../dist/reference/gateway.js';
import { FAULTS } from '../dist/reference/faults/index.js';
import { runSuite } from '../dist/src/runner/run.js';
import { upstreamForGateway } from '../dist/mocks/upstream/for-gateway.js';
import { resolveConfig } from '../dist/src/config/config.js';
import { CHECKS } from '../dist/suites/index.js';

const args = process.argv.slice(2);
const seedAt = args.indexOf('--seed');
const seed = seedAt >= 0 ? args.splice(seedAt, 2)[1] : '1';
const names = args.length ? args : FAULTS.map((f) => f.name);
// The flags a row runs with in the matrix (test/detection/*.json `flags`: `only`, `strict`), so this prints what the matrix judges.
const dir = new URL('../test/detection/', import.meta.url);
const flagsOf = Object.assign({}, ...readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')).flags ?? {}));
const faults = {};
for (const name of names) {
  const fault = FAULTS.find((f) => f.name === name);
  if (!fault) throw new Error(`unknown fault ${name}`);
  // The upstream the fault's gateway needs (plain http, or TLS and HTTP/2): mocks/upstream/for-gateway.ts says.
  const { upstream, gateway, stop } = await upstreamForGateway(fault);
  const gw = new ReferenceGateway({ ...gateway, fault, upstreamTimeoutMs: DEMO_UPSTREAM_TIMEOUT_MS });
  const target = await gw.start('127.0.0.1', 0);
  const flags = flagsOf[name] ?? {};
  if (Object.keys(flags).length) process.stderr.write(`${name}: run with the row's flags ${JSON.stringify(flags)}\n`);
  const r = await runSuite(CHECKS, resolveConfig({ seed, reporter: ['json'], ...flags }, {}, {}), target, upstream, () => {});
  await gw.stop();
  await stop();
  const bad = r.results.filter((x) => x.outcome !== 'pass').sort((a, b) => a.id.localeCompare(b.id));
  faults[name] = Object.fromEntries(bad.map((x) => [x.id, x.outcome]));
  for (const x of bad) process.stderr.write(`${name}: ${x.outcome} ${x.id}: ${x.message.slice(0, 200)}\n`);
}
console.log(JSON.stringify({ faults }, null, 2));
