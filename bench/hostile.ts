// The hostile-gateway corpus (test/cli/hostile.test.ts) at the limits a user has: no --timeout-ms,
// so every check gets the CLI's default per-check limit. Prints per case the process's wall
// time, its longest check, peak RSS, exit code and where any piece of the credential showed up.
// The goal: every run done within 60 s of its longest check, at most 150 MB, exit 1, no leak.
// The suite runs the same corpus at a 4 s limit (CI time); this is the measurement at 20 s.
//   npm run bench:hostile [-- drip,flood-1xx] [--all]   (a comma-separated list of cases, default
//   all of them; --all: each case runs the whole default profile, as a user's run does, instead
//   of the suite's nine checks)
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const wholeProfile = process.argv.includes('--all');
const cases = process.argv.slice(2).find((a) => a !== '--all');
const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
const env = { ...process.env, GWC_HOSTILE_TIMEOUT_MS: 'default', GWC_HOSTILE_TABLE: '1', ...(cases ? { GWC_HOSTILE_CASES: cases } : {}), ...(wholeProfile ? { GWC_HOSTILE_PROFILE: 'all' } : {}) };
const t0 = Date.now();
const p = spawn(process.execPath, [vitest, 'run', 'test/cli/hostile.test.ts', '--reporter', 'dot'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
let out = '';
p.stdout.on('data', (d: Buffer) => (out += d.toString()));
p.on('close', (code) => {
  const table = out.split('\n').filter((l) => l.startsWith('|'));
  const failed = out.split('\n').filter((l) => /^\s*(FAIL|AssertionError|×)/.test(l) || /^ +(→|AssertionError)/.test(l));
  console.log(`hostile corpus at the default per-check limit (${cases ?? 'every case'}${wholeProfile ? ', the whole default profile' : ''}), ${((Date.now() - t0) / 1000).toFixed(0)} s in all:`);
  console.log(table.length ? table.join('\n') : out.slice(-4000));
  if (failed.length) console.log(`\nassertions that failed (test/cli/hostile.test.ts):\n${failed.slice(0, 60).join('\n')}`);
  process.exitCode = code ?? 1;
});
