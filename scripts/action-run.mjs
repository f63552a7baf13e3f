#!/usr/bin/env node
// The run step of the GitHub Action (action.yml): turns the action's inputs, which reach it only
// through the environment (GWC_IN_*), into the arguments of `gw-conformance run`, runs the CLI of
// the action's own checkout (GWC_ACTION_PATH, built by the step before) and writes the step's
// outputs (result, passed, failed) to GITHUB_OUTPUT. No shell sees an input: list inputs are split
// on commas and blanks here, each `args` line is one argument, and nothing is glob-expanded.
// An empty `token` means the gateway gets no credential (--no-token), said in a notice, unless the
// `args` input, GWC_TOKEN or the gwc.yaml in use names the credential another way; never a
// dummy token.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import YAML from 'yaml';

const env = process.env;
const input = (name) => env[`GWC_IN_${name}`] ?? '';
/** A list input: items separated by commas or blanks (newlines included). */
const list = (value) => value.split(/[\s,]+/).filter(Boolean);

/** Stops the step with one line and exit 2 (a harness error, as the CLI's own). */
function refuse(message) {
  console.error(`gw-conformance action: ${message}`);
  writeOutputs({ result: 'error', passed: '', failed: '' });
  process.exit(2);
}

function writeOutputs(values) {
  if (!env.GITHUB_OUTPUT) return;
  appendFileSync(env.GITHUB_OUTPUT, Object.entries(values).map(([k, v]) => `${k}=${v}\n`).join(''));
}

/** `args`: one argument per line, surrounding blanks and CR trimmed, blank lines dropped. */
const extraArgs = () => input('ARGS').split('\n').map((l) => l.trim()).filter(Boolean);

/** The flags the single-valued inputs give, in this order. */
const SINGLE = [
  ['TARGET', '--target'],
  ['GATEWAY_CMD', '--gateway-cmd'],
  ['CONFIG', '--config'],
  ['PROFILE', '--profile'],
  ['UPSTREAM_LISTEN', '--upstream-listen'],
  ['SEED', '--seed'],
];

function runArgs(extra) {
  const args = ['run'];
  for (const [name, flag] of SINGLE) if (input(name) !== '') args.push(flag, input(name));
  const strict = input('STRICT').trim();
  if (strict === 'true') args.push('--strict');
  else if (strict !== 'false' && strict !== '') refuse(`strict: expected true or false, got "${strict}"`);
  for (const r of list(input('REPORTER'))) args.push('--reporter', r);
  for (const o of list(input('ONLY'))) args.push('--only', o);
  for (const s of list(input('SKIP'))) args.push('--skip', s);
  if (input('OUT') !== '') args.push('--out', input('OUT'));
  return [...args, ...extra];
}

/** Whether the gwc.yaml the run reads names the credential (`token: none` or `token-env`). */
function configNamesCredential() {
  const path = input('CONFIG') || 'gwc.yaml';
  if (!existsSync(path)) return false;
  try {
    const data = YAML.parse(readFileSync(path, 'utf8'));
    return data !== null && typeof data === 'object' && ('token' in data || 'token-env' in data);
  } catch {
    return false; // the CLI reports a file it cannot read, in its own words
  }
}

/** The credential: GWC_TOKEN for the CLI, or --no-token with a notice when the input is empty. */
function credential(extra, childEnv) {
  const token = input('TOKEN');
  if (token !== '') {
    childEnv.GWC_TOKEN = token;
    return [];
  }
  // GWC_TOKEN set in the job's environment is the user's own way (an empty one the CLI refuses).
  if (env.GWC_TOKEN !== undefined) return [];
  if (extra.some((a) => a === '--no-token' || a === '--token' || a.startsWith('--token='))) return [];
  if (configNamesCredential()) return [];
  console.log('::notice title=gw-conformance::The token input is empty, so the gateway gets no credential (--no-token: the checks of a client credential are skipped). If the gateway takes one, pass it as token (a secret that is not set, or not given to this run, is empty).');
  return ['--no-token'];
}

/** A command line as a reader would type it (single quotes where needed), a --token given in `args` masked. */
function shown(args) {
  const quoted = (a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
  return args.map((a, i) => (args[i - 1] === '--token' ? '***' : a.startsWith('--token=') ? '--token=***' : quoted(a))).join(' ');
}

function main() {
  const root = env.GWC_ACTION_PATH;
  if (!root) refuse('GWC_ACTION_PATH is not set (the action sets it to github.action_path)');
  const bin = join(resolve(root), 'bin', 'gw-conformance.js');
  const extra = extraArgs();
  const childEnv = { ...env };
  const args = [...runArgs(extra), ...credential(extra, childEnv)];
  for (const k of Object.keys(childEnv)) if (k.startsWith('GWC_IN_') || k === 'GWC_ACTION_PATH') delete childEnv[k];
  console.log(`gw-conformance ${shown(args)}`);
  const child = spawn(process.execPath, [bin, ...args], { stdio: 'inherit', env: childEnv });
  // A cancelled job stops the step: the CLI gets the signal and ends its run.
  for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => child.kill(s));
  child.on('error', (e) => refuse(`could not start ${bin}: ${e.message}`));
  child.on('close', (code) => {
    const exit = code ?? 2;
    writeOutputs({ result: exit === 0 ? 'pass' : exit === 1 ? 'fail' : 'error', ...counts() });
    process.exit(exit);
  });
}

/** passed and failed from report.json when the run wrote one; empty otherwise. */
function counts() {
  try {
    const s = JSON.parse(readFileSync(join(input('OUT') || 'reports', 'report.json'), 'utf8')).summary;
    return { passed: String(s.pass), failed: String(s.fail + s.timeout + s.flaky) };
  } catch {
    return { passed: '', failed: '' };
  }
}

main();
