// `run --profile load` through a gateway the harness starts (--gateway-cmd), for the tests of the
// load profile through real proxies (nginx, HAProxy): the results by id, the exit code, and every
// verdict on a line of its own for the assertion messages.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { cli, ROOT } from './cli.js';

export type LoadResult = { id: string; outcome: string; message: string };

/** Runs the load profile through `gatewayCmd` with `args`, its report written into `out`. */
export async function loadRun(gatewayCmd: string, args: string[], out: string, timeoutMs: number) {
  if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) expect.fail('the CLI is not built: run `npx tsc -p .` first');
  const r = await cli(['run', '--profile', 'load', '--gateway-cmd', gatewayCmd, '--seed', '1', '--reporter', 'json', '--out', out, ...args], { timeoutMs });
  const file = path.join(out, 'report.json');
  if (!existsSync(file)) expect.fail(`no report\nexit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
  const report = JSON.parse(readFileSync(file, 'utf8')) as { results: LoadResult[] };
  const by = Object.fromEntries(report.results.map((x) => [x.id, x]));
  return { code: r.code, by, detail: report.results.map((x) => `${x.id}: ${x.outcome}: ${x.message}`).join('\n') };
}
