#!/usr/bin/env node
// Prints what each reference-gateway fault actually fails (build first: npm run build), and with
// --write records it: the rows of the named faults in test/detection/*.json are rewritten from
// the run, every other row, the flags and the description kept, and each change printed. Where a
// row goes is scripts/detection-rows.mjs's rule: a check's row stays in the file that holds it; a
// new one of a protocol's own check (suites/<name>/, capabilities.<name>) goes to that protocol's
// file test/detection/<name>.json when it exists; any other to the fault's home (the file holding
// its other rows, else test/detection/<area>.json for reference/faults/<area>.ts). Read each failure before committing a row: the
// detection matrix (test/helpers/detection-matrix.ts) then holds every run to it.
//   node scripts/detection.mjs [fault ...] [--seed N]     print
//   node scripts/detection.mjs --write FAULT... | --all   record the named faults' rows (--all: every fault)
import { existsSync, readdirSync } from 'node:fs';
import { DEMO_UPSTREAM_TIMEOUT_MS, ReferenceGateway } from '../dist/reference/gateway.js';
import { FAULTS } from '../dist/reference/faults/index.js';
import { runSuite } from '../dist/src/runner/run.js';
import { upstreamForGateway } from '../dist/mocks/upstream/for-gateway.js';
import { resolveConfig } from '../dist/src/config/config.js';
import { CHECKS } from '../dist/suites/index.js';
import { PROTOCOLS } from '../dist/src/core/protocols.js';
import { outcomeChanges, readJson, rewrite, withRow } from './baselines.mjs';
import { readMatrix, splitRow } from './detection-rows.mjs';

const args = process.argv.slice(2);
const seedAt = args.indexOf('--seed');
const seed = seedAt >= 0 ? args.splice(seedAt, 2)[1] : '1';
const take = (flag) => (args.includes(flag) ? (args.splice(args.indexOf(flag), 1), true) : false);
const write = take('--write');
const all = take('--all');
const refuse = (why) => {
  console.error(`detection: ${why}`);
  process.exit(2);
};
if (write && !all && !args.length) refuse('--write rewrites the rows of the faults it is given: name them (or --all for every fault)');
const unknown = args.filter((n) => !FAULTS.some((f) => f.name === n));
if (unknown.length) refuse(`unknown fault ${unknown.join(', ')} (the default matrix's faults are reference/faults/*.ts but load.ts and the apps faults)`);
const names = args.length && !all ? args : FAULTS.map((f) => f.name);
// The flags a row runs with in the matrix (test/detection/*.json `flags`: `only`, `strict`), so this prints what the matrix judges.
const dir = new URL('../test/detection/', import.meta.url);
const matrix = readMatrix(dir, PROTOCOLS);
const flagsOf = matrix.flags;
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
  // Every protocol declared, as the matrix's runs do (test/helpers/demo.ts): the reference gateway serves them all.
  const r = await runSuite(CHECKS, resolveConfig({ seed, reporter: ['json'], protocols: [...PROTOCOLS], ...flags }, {}, {}), target, upstream, () => {});
  await gw.stop();
  await stop();
  // On a translated route the checks of bytes and forwarded headers skip, naming the route: the
  // matrix leaves those out of the fault's row (translate.json `translatedSkips` holds them).
  const routeSkip = (x) => fault.translate && x.outcome === 'skip' && x.message.startsWith('translated route: ');
  const bad = r.results.filter((x) => x.outcome !== 'pass' && !routeSkip(x)).sort((a, b) => a.id.localeCompare(b.id));
  faults[name] = Object.fromEntries(bad.map((x) => [x.id, x.outcome]));
  for (const x of bad) process.stderr.write(`${name}: ${x.outcome} ${x.id}: ${x.message.slice(0, 200)}\n`);
}
if (write) for (const line of await record(faults)) console.log(line);
else console.log(JSON.stringify({ faults }, null, 2));

/** The home file of `name`: the one holding its rows (but a protocol's own), else the one of the area whose module in reference/faults/ defines it. */
async function homeOf(name) {
  if (matrix.home[name]) return matrix.home[name];
  const modules = new URL('../dist/reference/faults/', import.meta.url);
  for (const f of readdirSync(modules).filter((n) => n.endsWith('.js') && n !== 'index.js')) {
    const mod = await import(new URL(f, modules).href);
    if (Object.values(mod).some((v) => Array.isArray(v) && v.some((x) => x?.name === name))) return f.replace(/\.js$/, '.json');
  }
  return refuse(`${name}: no module of reference/faults/ defines it`);
}

/** Rewrites the rows of `rows` (fault -> outcomes) in their files; returns what changed, one line each. */
async function record(rows) {
  const lines = [];
  for (const [name, row] of Object.entries(rows)) {
    const home = await homeOf(name);
    if (!existsSync(new URL(home, dir))) refuse(`${name}: test/detection/${home} does not exist: create it with its description and an empty "faults" first`);
    for (const [file, part] of Object.entries(splitRow(matrix, name, row, home, PROTOCOLS, (f) => existsSync(new URL(f, dir))))) {
      const url = new URL(file, dir);
      const before = readJson(url);
      const changes = outcomeChanges(before.faults[name] ?? {}, part);
      // A protocol's file that no longer holds any of the fault's rows loses its entry; the home keeps one (a control's is empty).
      const next = file !== home && !Object.keys(part).length ? { ...before, faults: Object.fromEntries(Object.entries(before.faults).filter(([f]) => f !== name)) } : withRow(before, name, part);
      const fresh = !(name in before.faults) && Object.keys(next.faults).includes(name);
      const changed = changes.length || fresh ? rewrite(url, `test/detection/${file} ${name}`, changes.length ? changes : ['(a new row: it fails nothing)'], next) : [];
      lines.push(...(changed.length ? changed : [`test/detection/${file} ${name}: unchanged`]));
    }
  }
  return lines;
}
