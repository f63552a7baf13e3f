// `reference --declared-limit`: the reference gateway started on its own enforces a gateway-level
// limit, so a user sees LIMIT-1 pass against it (and fail against the same gateway without the
// limit); a bad value is one line and exit 2 before anything listens.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../../src/report/shared/types.js';
import { freePort } from '../../helpers/cli.js';
import { cliInProcess, startInProcess } from '../../helpers/in-process.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Starts `reference` with `args` forwarding to 127.0.0.1:`upstreamPort`; resolves with its URL once it listens. */
async function startReference(upstreamPort: number, args: string[]) {
  const ref = startInProcess(['reference', '--listen', '127.0.0.1:0', '--upstream', `http://127.0.0.1:${upstreamPort}`, ...args]);
  // The command prints its address once it listens (or ends at once on bad input).
  const line = await ref.line(/listening on /);
  const url = /listening on (http:\/\/\S+?),/.exec(line)![1];
  return { url, line, stop: async () => (await ref.stop()).code };
}

/** `run --profile load --declared-limit rps=5 --only load.limit.refused` against `url`: exit code and the check's outcome. */
async function limitRun(url: string, upstreamPort: number) {
  const out = mkdtempSync(join(tmpdir(), 'gwc-reference-limit-'));
  dirs.push(out);
  const { code } = await cliInProcess(['run', '--profile', 'load', '--target', url, '--upstream-listen', `127.0.0.1:${upstreamPort}`, '--declared-limit', 'rps=5', '--only', 'load.limit.refused', '--reporter', 'json', '--out', out, '--seed', '1']);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunReport;
  const r = report.results.find((x) => x.id === 'load.limit.refused');
  return { code, outcome: r?.outcome, message: r?.message };
}

describe('reference --declared-limit', () => {
  it('enforces the limit: LIMIT-1 passes against it, exit 0; without it the same run fails, exit 1', async () => {
    const port = await freePort();
    const limited = await startReference(port, ['--declared-limit', 'rps=5']);
    expect(limited.line).toContain('limit 5 requests per 1 s per credential');
    try {
      const r = await limitRun(limited.url, port);
      expect(r.outcome, r.message).toBe('pass');
      expect(r.code).toBe(0);
    } finally {
      expect(await limited.stop()).toBe(0);
    }
    const open = await startReference(port, []);
    expect(open.line).not.toContain('limit');
    try {
      const r = await limitRun(open.url, port);
      expect(r.outcome, r.message).toBe('fail');
      expect(r.code).toBe(1);
    } finally {
      await open.stop();
    }
  }, 60_000);

  it('takes the limit from GWC_DECLARED_LIMIT too', async () => {
    const ref = startInProcess(['reference', '--listen', '127.0.0.1:0'], { env: { GWC_DECLARED_LIMIT: 'concurrency=3' } });
    const line = await ref.line(/listening on /);
    expect((await ref.stop()).code).toBe(0);
    expect(line).toContain('limit 3 requests open at once per credential');
  });

  for (const [args, line] of [
    [['--declared-limit', 'rps=x'], 'gw-conformance: error GWC-BAD-FLAG: --declared-limit: rps must be a whole number from 1 to 1000, got "x"'],
    [['--declared-limit', 'burst=3'], 'gw-conformance: error GWC-BAD-FLAG: --declared-limit: expected rps=N (with window-s=S, default 1) or concurrency=N, got burst'],
    [['--declared-limit', 'rps'], 'gw-conformance: error GWC-BAD-FLAG: --declared-limit: expected key=n, got "rps"'],
    [['--apps', '--config', 'gateway.yaml', '--declared-limit', 'rps=5'], 'gw-conformance: error GWC-BAD-FLAG: reference --apps takes no --declared-limit (a limit of the plain reference gateway)'],
  ] as const)
    it(`bad input ${args.join(' ')}: one line, exit 2, nothing listens`, async () => {
      const r = await cliInProcess(['reference', '--listen', '127.0.0.1:0', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(line);
      expect(r.stdout).toBe('');
    });
});
