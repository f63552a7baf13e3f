// Replay of a failed check (src/report/run/replay.ts): the command that runs it again, and a curl
// line per request the client sent, with the credential as "$GWC_TOKEN", never its value.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { curlCommand, MAX_REPLAY_BODY, recordSent, replayCommand, REPLAY_OUT, shellQuote, withReplay, type SentRequest } from '../../../src/report/run/replay.js';
import { type CheckResult, type RunReport } from '../../../src/report/shared/types.js';
import { madeUpReport } from '../../helpers/made-up-report.js';
import { cliInProcess } from '../../helpers/in-process.js';
import { cli } from '../../helpers/cli.js';

/** The words a POSIX shell makes of a command line (with GWC_TOKEN set), via /bin/sh itself. */
function words(line: string, token = 'tok-from-env'): string[] {
  const r = spawnSync('/bin/sh', ['-c', `set -- ${line}; for a in "$@"; do printf '%s\\0' "$a"; done`], { env: { PATH: process.env.PATH, GWC_TOKEN: token }, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\0').slice(0, -1);
}

const HOSTILE_BODY = `{"text":"it's a \\"quote\\" $HOME \`id\` $(id) ; rm -rf / \\n é 😀 \\\\"}`;

describe('replay command', () => {
  it('keeps the run arguments but --only, --skip, --seed and --token, then selects the one check and the seed', () => {
    const argv = ['demo', '--fault', 'html-errors', '--only', 'messages', '--skip=x', '--seed', '7', '--token', 'sk-SECRET', '--token=sk-SECRET2', '--out', '/tmp/a b', '--strict'];
    const cmd = replayCommand(argv, 'messages.response.json', 1234);
    expect(cmd).not.toContain('SECRET');
    expect(words(cmd)).toEqual(['npx', 'gw-conformance', 'demo', '--fault', 'html-errors', '--strict', '--only', 'messages.response.json', '--seed', '1234', '--out', 'gw-conformance-reproduce/messages.response.json']);
  });

  it("writes to a folder of its own, never to the run's --out (relative or absolute) or the default folder", () => {
    const own = ['--only', 'a.b', '--seed', '1', '--out', `${REPLAY_OUT}/a.b`];
    expect(REPLAY_OUT).toBe('gw-conformance-reproduce');
    expect(words(replayCommand(['run', '--out', '/home/ci/work/reports', '--strict'], 'a.b', 1))).toEqual(['npx', 'gw-conformance', 'run', '--strict', ...own]);
    expect(words(replayCommand(['run', '--out=/home/ci/work/reports'], 'a.b', 1))).toEqual(['npx', 'gw-conformance', 'run', ...own]);
    expect(words(replayCommand(['run', '--out', 'reports/gw', '--out=r2'], 'a.b', 1))).toEqual(['npx', 'gw-conformance', 'run', ...own]);
    expect(words(replayCommand(['demo'], 'a.b', 1))).toEqual(['npx', 'gw-conformance', 'demo', ...own]);
  });

  it('shell quoting survives quotes, $, backticks and newlines', () => {
    for (const s of ["it's", '$(id)', '`id`', 'a\nb', '', 'plain-word', HOSTILE_BODY]) expect(words(shellQuote(s))).toEqual([s]);
  });
});

describe('curl lines', () => {
  const base = { method: 'POST', path: '/v1/messages?beta=true', headers: [['content-type', 'application/json'], ['x-gwc-case', 'gwc-1']] as Array<[string, string]>, body: HOSTILE_BODY, bodyBytes: Buffer.byteLength(HOSTILE_BODY) };

  it('send the exact method, URL, headers and body; the credential is the environment variable', () => {
    const w = words(curlCommand('http://127.0.0.1:8080/', { ...base, auth: 'bearer' }));
    expect(w).toEqual(['curl', '-sS', '-N', '-X', 'POST', 'http://127.0.0.1:8080/v1/messages?beta=true', '-H', 'authorization: Bearer tok-from-env', '-H', 'content-type: application/json', '-H', 'x-gwc-case: gwc-1', '--data-binary', HOSTILE_BODY]);
  });

  it('each way of attaching the credential becomes a placeholder', () => {
    expect(words(curlCommand('http://h', { ...base, auth: 'x-api-key' }))).toContain('x-api-key: tok-from-env');
    expect(words(curlCommand('http://h', { ...base, auth: 'x-goog-api-key' }))).toContain('x-goog-api-key: tok-from-env');
    expect(words(curlCommand('http://h', { ...base, auth: 'key-query' }))[5]).toBe('http://h/v1/messages?beta=true&key=tok-from-env');
    const none = words(curlCommand('http://h', { ...base, auth: 'none' }));
    expect(none.join(' ')).not.toContain('tok-from-env');
  });

  it('recordSent keeps no credential a check put in its own headers, and drops bodies over the limit', () => {
    const r = recordSent({ method: 'POST', path: '/v1/messages', headers: [['x-api-key', 'sk-SECRET'], ['authorization', 'Bearer sk-SECRET']], body: 'x'.repeat(MAX_REPLAY_BODY + 1), auth: 'none', caseToken: 'gwc-9' });
    expect(JSON.stringify(r)).not.toContain('SECRET');
    expect(r).toMatchObject({ body: null, bodyBytes: MAX_REPLAY_BODY + 1, headers: [['x-api-key', '***'], ['authorization', 'Bearer ***'], ['x-gwc-case', 'gwc-9']] });
    expect(curlCommand('http://h', r)).toContain(`# the ${MAX_REPLAY_BODY + 1}-byte body is not kept in the report`);
  });
});

describe('withReplay', () => {
  const sent: SentRequest = { method: 'GET', path: '/v1/models', auth: 'bearer', headers: [], body: null, bodyBytes: 0 };
  const result = (id: string, outcome: CheckResult['outcome']): CheckResult => ({ id, title: id, area: 'a', requirements: [], level: 'MUST', outcome, message: '', expected: null, actual: null, evidence: outcome === 'pass' ? {} : { sent: [sent] }, durationMs: 1 });
  const report = (results: CheckResult[]): RunReport => madeUpReport(results, { harness: { name: 'gw-conformance', version: '0' }, target: 'http://127.0.0.1:1', seed: 5 });

  it('gives every failed check (fail, warn, info, error, timeout) its command and curl lines, and no passing one', () => {
    const out = withReplay(report(['fail', 'warn', 'info', 'error', 'timeout', 'pass', 'skip'].map((o, i) => result(`c${i}`, o as CheckResult['outcome']))), ['run', '--target', 'http://127.0.0.1:1']);
    const replays = out.results.map((r) => r.evidence.replay as { command: string; curl: string[] } | undefined);
    expect(replays.slice(5)).toEqual([undefined, undefined]);
    for (const [i, r] of replays.slice(0, 5).entries()) {
      expect(r!.command).toBe(`npx gw-conformance run --target http://127.0.0.1:1 --only c${i} --seed 5 --out ${REPLAY_OUT}/c${i}`);
      expect(r!.curl).toEqual(['curl -sS -N -X GET http://127.0.0.1:1/v1/models -H "authorization: Bearer $GWC_TOKEN"']);
    }
  });
});

describe('a run without a credential (--no-token)', () => {
  it('puts no credential header in its curl lines and says it sent none', async () => {
    const out = mkdtempSync(join(tmpdir(), 'gwc-replay-'));
    const r = await cliInProcess(['demo', '--fault', 'html-errors', '--only', 'messages.response.json', '--out', out, '--no-token'], { timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(1);
    const failed = (JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunReport).results.find((x) => x.id === 'messages.response.json')!;
    const replay = failed.evidence.replay as { command: string; curl: string[]; credential: string };
    expect(replay.curl.length).toBeGreaterThan(0);
    for (const c of replay.curl) expect(c).not.toMatch(/GWC_TOKEN|authorization|x-api-key/i);
    expect(replay.credential).toBe('the run sent no credential: neither do the curl lines');
    // The folder of this machine stays out of the command; --no-token stays in.
    expect(replay.command).not.toContain(out);
    expect(words(replay.command)).toContain('--no-token');
  }, 60_000);
});

describe('a real failure, replayed', () => {
  it('the demo writes the replay of a failed check; running that command fails the same check the same way', async () => {
    const out = mkdtempSync(join(tmpdir(), 'gwc-replay-'));
    const first = await cliInProcess(['demo', '--fault', 'html-errors', '--only', 'messages.response.json', '--only', 'messages.path.preserved', '--out', out, '--token', 'sk-gwc-SECRET-r1'], { timeoutMs: 60_000 });
    expect(first.code, first.stderr).toBe(1);
    const text = readFileSync(join(out, 'report.json'), 'utf8');
    expect(text).not.toContain('SECRET');
    const report = JSON.parse(text) as RunReport;
    const failed = report.results.find((r) => r.id === 'messages.response.json')!;
    const passed = report.results.find((r) => r.id === 'messages.path.preserved')!;
    expect([failed.outcome, passed.outcome]).toEqual(['fail', 'pass']);
    expect(passed.evidence.replay).toBeUndefined();
    const replay = failed.evidence.replay as { command: string; curl: string[] };
    expect(replay.curl.length).toBeGreaterThan(0);
    for (const c of replay.curl) expect(c).toContain('"authorization: Bearer $GWC_TOKEN"');
    // The curl line sends the body the client sent (what the upstream received here, untouched).
    const upstreamBody = (failed.evidence.upstream as { body: string }).body;
    expect(replay.curl.map((c) => words(c).at(-1))).toContain(upstreamBody);

    const argv = words(replay.command);
    expect(argv.slice(0, 2)).toEqual(['npx', 'gw-conformance']);
    expect(argv.slice(-6)).toEqual(['--only', 'messages.response.json', '--seed', String(report.seed), '--out', `${REPLAY_OUT}/messages.response.json`]);
    expect(argv.filter((a) => a === '--out')).toHaveLength(1);
    // Run as printed, from a working directory of its own: it writes to its own folder, and the report it came from stays.
    const before = readFileSync(join(out, 'report.json'), 'utf8');
    const cwd = mkdtempSync(join(tmpdir(), 'gwc-replay-'));
    const again = await cli(argv.slice(2), { timeoutMs: 60_000, cwd });
    expect(again.code, again.stderr).toBe(1);
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe(before);
    const second = JSON.parse(readFileSync(join(cwd, REPLAY_OUT, 'messages.response.json', 'report.json'), 'utf8')) as RunReport;
    expect(second.seed).toBe(report.seed);
    expect(second.results.map((r) => [r.id, r.outcome, r.message])).toEqual([[failed.id, 'fail', failed.message]]);
  }, 130_000);
});
