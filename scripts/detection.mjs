#!/usr/bin/env node
// Prints what each reference-gateway fault actually fails (build first: npm run build).
// Use it to review a new fault; the expectation files in test/detection/ are written by hand
// from this output after reading each failure, never copied blindly.
//   node scripts/detection.mjs [fault ...] [--seed N]
import { RecordingUpstream } from '../dist/mocks/upstream/server.js';
import { DEMO_UPSTREAM_TIMEOUT_MS, ReferenceGateway } from '../dist/reference/gateway.js';
import { FAULTS } from '../dist/reference/faults/index.js';
import { runSuite } from '../dist/src/cli/run.js';
import { resolveConfig } from '../dist/src/config/config.js';
import { CHECKS } from '../dist/suites/index.js';

const args = process.argv.slice(2);
const seedAt = args.indexOf('--seed');
const seed = seedAt >= 0 ? args.splice(seedAt, 2)[1] : '1';
const names = args.length ? args : FAULTS.map((f) => f.name);
const faults = {};
for (const name of names) {
  const fault = FAULTS.find((f) => f.name === name);
  if (!fault) throw new Error(`unknown fault ${name}`);
  const upstream = new RecordingUpstream();
  await upstream.start('127.0.0.1', 0);
  const gw = new ReferenceGateway({ upstream: upstream.url, fault, upstreamTimeoutMs: DEMO_UPSTREAM_TIMEOUT_MS });
  const target = await gw.start('127.0.0.1', 0);
  const r = await runSuite(CHECKS, resolveConfig({ seed, reporter: ['json'] }, {}, {}), target, upstream, () => {});
  await gw.stop();
  await upstream.stop();
  const bad = r.results.filter((x) => x.outcome !== 'pass').sort((a, b) => a.id.localeCompare(b.id));
  faults[name] = Object.fromEntries(bad.map((x) => [x.id, x.outcome]));
  for (const x of bad) process.stderr.write(`${name}: ${x.outcome} ${x.id}: ${x.message.slice(0, 200)}\n`);
}
console.log(JSON.stringify({ faults }, null, 2));
