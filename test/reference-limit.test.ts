// `reference --declared-limit`: the reference gateway started on its own enforces a gateway-level
// limit, so a user sees LIMIT-1 pass against it (and fail against the same gateway without the
// limit); a bad value is one line and exit 2 before anything listens.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/program.js';
import type { RunReport } from '../src/report/types.js';
import { freePort } from './helpers/cli.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function io(env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  let stop = () => {};
  const stopped = new Promise<void>((r) => (stop = r));
  return { out, err, stop, io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s), env, untilStopped: () => stopped } };
}

/** Starts `reference` with `args` forwarding to 127.0.0.1:`upstreamPort`; resolves with its URL once it listens. */
async function startReference(upstreamPort: number, args: string[]) {
  const t = io();
  const code = main(['reference', '--listen', '127.0.0.1:0', '--upstream', `http://127.0.0.1:${upstreamPort}`, ...args], t.io);
  // The command prints its address once it listens (or ends at once on bad input).
  for (let i = 0; i < 200 && !t.out.length; i++) await Promise.race([code, new Promise((r) => setImmediate(r))]);
  const url = /listening on (http:\/\/\S+?),/.exec(t.out[0] ?? '')?.[1];
  if (!url) throw new Error(`reference did not start: ${t.err.join('\n')}`);
  return { url, line: t.out[0], stop: async () => (t.stop(), await code) };
}

/** `run --profile load --declared-limit rps=5 --only load.limit.refused` against `url`: exit code and the check's outcome. */
async function limitRun(url: string, upstreamPort: number) {
  const out = mkdtempSync(join(tmpdir(), 'gwc-reference-limit-'));
  dirs.push(out);
  const t = io();
  const code = await main(['run', '--profile', 'load', '--target', url, '--upstream-listen', `127.0.0.1:${upstreamPort}`, '--declared-limit', 'rps=5', '--only', 'load.limit.refused', '--reporter', 'json', '--out', out, '--seed', '1'], t.io);
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
    const t = io({ GWC_DECLARED_LIMIT: 'concurrency=3' });
    const code = main(['reference', '--listen', '127.0.0.1:0'], t.io);
    for (let i = 0; i < 200 && !t.out.length; i++) await Promise.race([code, new Promise((r) => setImmediate(r))]);
    t.stop();
    expect(await code).toBe(0);
    expect(t.out[0]).toContain('limit 3 requests open at once per credential');
  });

  for (const [args, line] of [
    [['--declared-limit', 'rps=x'], 'gw-conformance: --declared-limit: rps must be a whole number from 1 to 1000, got "x"'],
    [['--declared-limit', 'burst=3'], 'gw-conformance: --declared-limit: expected rps=N (with window-s=S, default 1) or concurrency=N, got burst'],
    [['--declared-limit', 'rps'], 'gw-conformance: --declared-limit: expected key=n, got "rps"'],
    [['--apps', '--config', 'gateway.yaml', '--declared-limit', 'rps=5'], 'gw-conformance: reference --apps takes no --declared-limit (a limit of the plain reference gateway)'],
  ] as const)
    it(`bad input ${args.join(' ')}: one line, exit 2, nothing listens`, async () => {
      const t = io();
      expect(await main(['reference', '--listen', '127.0.0.1:0', ...args], t.io)).toBe(2);
      expect(t.err).toHaveLength(1);
      expect(t.err[0]).toContain(line);
      expect(t.out).toEqual([]);
    });
});
