// The vendor conformance report (what a gateway vendor publishes to show it conforms): certify writes the folder, the transcript
// digest is the same run after run against a deterministic gateway and changes with a fault,
// and verify says check by check whether a recorded run is reproduced.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { DEMO_UPSTREAM_TIMEOUT_MS, ReferenceGateway } from '../../../reference/gateway.js';
import { faultByName } from '../../../reference/faults/index.js';
import { runSuite } from '../../../src/runner/run.js';
import { resolveConfig } from '../../../src/config/config.js';
import { firstDifference, masker, TIMING_EXCHANGE, transcriptDigest, transcriptLines, type Transcript } from '../../../src/report/certify/transcript.js';
import { conformanceErrors, harnessIntegrity, profileResult } from '../../../src/report/certify/certify.js';
import { mkdirSync } from 'node:fs';
import { VERSION } from '../../../src/core/paths.js';
import type { RunReport } from '../../../src/report/shared/types.js';
import { PhaseGate } from '../../../src/runner/gate.js';
import { CHECKS } from '../../../suites/index.js';
import { cli, freePort } from '../../helpers/cli.js';
import { cliInProcess } from '../../helpers/in-process.js';
import { NO_IDLE_PROBE } from '../../helpers/untimed.js';
import { nginxAvailable, startNginx } from '../../helpers/nginx.js';
import { ROOT } from '../../helpers/cli.js';

async function withReference<T>(fault: string | undefined, upstreamPort: number | null, fn: (target: string, upstream: RecordingUpstream | null) => Promise<T>): Promise<T> {
  const upstream = upstreamPort === null ? new RecordingUpstream() : null;
  if (upstream) await upstream.start('127.0.0.1', 0);
  const gw = new ReferenceGateway({ upstream: upstream?.url ?? `http://127.0.0.1:${upstreamPort}`, fault: fault ? faultByName(fault) : undefined, upstreamTimeoutMs: DEMO_UPSTREAM_TIMEOUT_MS });
  try {
    return await fn(await gw.start('127.0.0.1', 0), upstream);
  } finally {
    await gw.stop();
    await upstream?.stop();
  }
}

/** `gate`: shared by runs going on at once, so their timing checks meet no other run's work (as in the detection matrix). */
async function transcriptOf(fault?: string, gate?: PhaseGate): Promise<{ report: RunReport; t: Transcript }> {
  return withReference(fault, null, async (target, upstream) => {
    const t: Transcript = new Map();
    const report = await runSuite(CHECKS, resolveConfig({ seed: '5', reporter: ['json'] }, {}, {}), target, upstream, () => {}, { transcript: t, gate });
    return { report, t };
  });
}


/** The two runs' verdicts of the check a difference names: why the two runs differ is often in them (how many bodies a property sent). */
function bothVerdicts(difference: string, a: RunReport, b: RunReport): string {
  const id = /^exchange \d+: (\S+) #/.exec(difference)?.[1];
  const of = (r: RunReport) => r.results.find((x) => x.id === id);
  return `${difference}\nrun a: ${of(a)?.outcome}: ${of(a)?.message}\nrun b: ${of(b)?.outcome}: ${of(b)?.message}`;
}

/** What verify prints when every check certify held is reproduced (the count is certify's own: `all N checks held`). */
function reproducedAll(certifyOut: string): RegExp {
  const held = /all (\d+) checks held/.exec(certifyOut)?.[1];
  if (!held || held === '0') throw new Error(`certify did not say how many checks held:\n${certifyOut}`);
  return new RegExp(`verdicts: ${held} of ${held} reproduced\ntranscript digest matches: [0-9a-f]{64}\nResult: reproduced\\.`);
}

describe('masking', () => {
  it('masks case tokens, the credential, ports, dates, generated ids; keeps the rest', () => {
    const m = masker(['sk-secret-123']);
    expect(m('gwc-0123456789abcdef Bearer sk-secret-123 http://127.0.0.1:41234/x 2026-11-21T22:13:52.123Z Sat, 21 Nov 2026 22:13:52 GMT msg_01AbCdEfGhIjKl 5e0c9a1e-7b2d-4c8f-9a3e-1f2b3c4d5e6f 42')).toBe(
      'gwc-<case> Bearer <credential> http://127.0.0.1:<port>/x <date> <date> msg_<id> <uuid> 42',
    );
  });
});

describe('transcript digest', () => {
  it('two runs against the reference give the same digest; a fault changes it and the first difference names the exchange', async () => {
    // The three runs (whole default profile, idle probe included) go on at once, each against its
    // own gateway and upstream: their idle probes (10 s, 16 s with pings) wait together.
    const gate = new PhaseGate();
    const [a, b, f] = await Promise.all([transcriptOf(undefined, gate), transcriptOf(undefined, gate), transcriptOf('strip-cache-control', gate)]);
    expect(a.report.exitCode).toBe(0);
    expect(transcriptLines(a.t).length).toBeGreaterThan(300);
    // A timing check is one fixed line: how many streams it sends depends on the measurement.
    expect(a.t.get('streaming.delivery.incremental')).toEqual([TIMING_EXCHANGE]);
    expect(a.t.get('messages.response.unchanged')!.length).toBeGreaterThan(1);
    // The first difference names the exchange; the digests then agree.
    const ab = firstDifference(transcriptLines(a.t), transcriptLines(b.t));
    expect(ab, ab ? bothVerdicts(ab, a.report, b.report) : '').toBeNull();
    expect(transcriptDigest(b.t)).toBe(transcriptDigest(a.t));
    expect(transcriptDigest(f.t)).not.toBe(transcriptDigest(a.t));
    expect(firstDifference(transcriptLines(a.t), transcriptLines(f.t))).toMatch(/^exchange \d+: messages\.[a-z.-]+ #\d+ \((client|upstream)\): the (received|request|response|reply)/);
  });
});

describe('harness integrity', () => {
  it('is the package tarball\'s npm integrity when the installing project\'s lock records it, else SHA-512 over the compiled files', () => {
    const project = mkdtempSync(join(tmpdir(), 'gwc-integrity-'));
    const root = join(project, 'node_modules', 'gw-conformance');
    mkdirSync(join(root, 'dist', 'src'), { recursive: true });
    writeFileSync(join(root, 'dist', 'src', 'a.js'), 'export const a = 1;\n');
    const files = harnessIntegrity(root);
    expect(files).toMatchObject({ algorithm: 'sha512', of: 'dist-files', files: 1 });
    writeFileSync(join(root, 'dist', 'src', 'a.js'), 'export const a = 2;\n');
    expect(harnessIntegrity(root).value).not.toBe(files.value);
    const integrity = 'sha512-' + Buffer.alloc(64, 7).toString('base64');
    writeFileSync(join(project, 'node_modules', '.package-lock.json'), JSON.stringify({ packages: { 'node_modules/gw-conformance': { version: VERSION, integrity } } }));
    expect(harnessIntegrity(root)).toEqual({ algorithm: 'sha512', of: 'package-tarball', value: integrity });
    // A lock entry of another version is not this package's tarball.
    writeFileSync(join(project, 'node_modules', '.package-lock.json'), JSON.stringify({ packages: { 'node_modules/gw-conformance': { version: '0.0.0-other', integrity } } }));
    expect(harnessIntegrity(root).of).toBe('dist-files');
  });
});

describe('profile result', () => {
  const r = (outcomes: string[], exitCode: 0 | 1) => ({ profile: 'default', exitCode, results: outcomes.map((o, i) => ({ id: `a.${i}`, outcome: o })) }) as unknown as RunReport;
  it('success, partial (skipped, waived or allowed flaky), failure', () => {
    expect(profileResult(r(['pass', 'warn'], 0)).result).toBe('success');
    expect(profileResult(r(['pass', 'skip'], 0)).result).toBe('partial');
    expect(profileResult(r(['pass', 'waived'], 0))).toMatchObject({ result: 'partial', checks: { waived: ['a.1'] }, statistics: { total: 2, passed: 1, waived: 1 } });
    expect(profileResult(r(['fail', 'pass'], 1))).toMatchObject({ result: 'failure', checks: { failed: ['a.0'] } });
  });
});

describe('certify and verify (CLI, reference gateway)', () => {
  it('writes the folder; verify reproduces it against the same gateway (exit 0) and not against a faulty one (exit 1); an edited or broken folder is exit 2', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'gwc-certify-')), 'cert');
    const up = await freePort();
    const args = ['--upstream-listen', `127.0.0.1:${up}`];
    const certified = await withReference(undefined, up, (target) =>
      cliInProcess(['certify', '--target', target, ...args, '--seed', '9', '--only', 'messages', '--implementation-name', 'Reference', '--implementation-version', '0.1.0', '--organization', 'gw-conformance', '--contact', 'dev@example.invalid', '--out', out, '--token', 'sk-never-written']),
    );
    expect(certified.stderr).toBe('');
    expect(certified.code).toBe(0);
    for (const f of ['conformance-report.yaml', 'junit.xml', 'report.json', 'report.html', 'README.md', 'transcript.jsonl']) expect(existsSync(join(out, f)), f).toBe(true);
    const doc = YAML.parse(readFileSync(join(out, 'conformance-report.yaml'), 'utf8'));
    expect(conformanceErrors(doc)).toBeNull();
    expect(doc).toMatchObject({ kind: 'ConformanceReport', implementation: { name: 'Reference', version: '0.1.0', organization: 'gw-conformance', contact: 'dev@example.invalid' }, seed: 9, profiles: [{ name: 'default', result: 'success' }] });
    expect(doc.harness.integrity.of).toBe('dist-files');
    expect(doc.harness.integrity.value).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    expect(doc.catalog.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(doc.transcript.digest).toMatch(/^[0-9a-f]{64}$/);
    const readme = readFileSync(join(out, 'README.md'), 'utf8');
    expect(readme).toMatch(/## Reproduce\n[\s\S]*gw-conformance verify \. --target http:\/\/127\.0\.0\.1:\d+/);
    for (const f of ['conformance-report.yaml', 'report.json', 'README.md', 'junit.xml', 'report.html']) expect(readFileSync(join(out, f), 'utf8')).not.toContain('sk-never-written');

    const same = await withReference(undefined, up, (target) => cliInProcess(['verify', out, '--target', target]));
    expect(same.stdout).toMatch(reproducedAll(certified.stdout));
    expect(same.code).toBe(0);

    const other = await withReference('count-tokens-invented', up, (target) => cliInProcess(['verify', out, '--target', target]));
    expect(other.stdout).toMatch(/DIFFERS {4}messages\.count-tokens\.passthrough +recorded pass, now fail: with the upstream answering 404, count_tokens returned a count/);
    expect(other.stdout).toMatch(/transcript digest differs: recorded [0-9a-f]{64}, now [0-9a-f]{64}; first difference: exchange \d+: messages\.count-tokens\.(passthrough|not-supported) #\d+ \(client\): the response differs/);
    expect(other.code).toBe(1);

    // An edited count in conformance-report.yaml: refused before anything runs, in one line naming the file.
    const yaml = readFileSync(join(out, 'conformance-report.yaml'), 'utf8');
    writeFileSync(join(out, 'conformance-report.yaml'), yaml.replace(/^(\s+)failed: 0$/m, '$1failed: 1'));
    const edited = await cliInProcess(['verify', out, '--target', 'http://127.0.0.1:1']);
    expect(edited.code).toBe(2);
    expect(edited.stderr).toMatch(/^gw-conformance: error GWC-BAD-REPORT: verify: \S*conformance-report\.yaml does not match the run it reports: profiles\[0\]\.statistics\.failed is 1, but report\.json gives 0\n$/);

    writeFileSync(join(out, 'conformance-report.yaml'), 'kind: Something\n');
    const broken = await cliInProcess(['verify', out, '--target', 'http://127.0.0.1:1']);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^gw-conformance: error GWC-BAD-REPORT: .*conformance-report\.yaml: not a conformance report: /);
  });

  it('certify and verify start the gateway themselves with --gateway-cmd; a faulty command is not reproduced', { timeout: 180_000 }, async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'gwc-certify-cmd-')), 'cert');
    const gateway = (fault?: string) => `"${process.execPath}" "${join(ROOT, 'bin/gw-conformance.js')}" reference --listen 127.0.0.1:{listen_port} --upstream {upstream_url}${fault ? ` --fault ${fault}` : ''}`;
    const certified = await cliInProcess(['certify', '--gateway-cmd', gateway(), '--seed', '9', '--only', 'messages', '--implementation-name', 'Reference', '--implementation-version', '0.1.0', '--out', out], { timeoutMs: 120_000 });
    expect(certified.code, certified.stdout + certified.stderr).toBe(0);
    expect(certified.stdout).toMatch(/started the gateway \(--gateway-cmd\) at http:\/\/127\.0\.0\.1:\d+/);
    const same = await cliInProcess(['verify', out, '--gateway-cmd', gateway()], { timeoutMs: 120_000 });
    expect(same.stdout).toMatch(reproducedAll(certified.stdout));
    expect(same.code).toBe(0);
    const other = await cliInProcess(['verify', out, '--gateway-cmd', gateway('count-tokens-invented')], { timeoutMs: 120_000 });
    expect(other.stdout).toMatch(/DIFFERS {4}messages\.count-tokens\.passthrough +recorded pass, now fail/);
    expect(other.code).toBe(1);
  });
});

// nginx: a real gateway. Skipped without nginx, mandatory in CI (GWC_REQUIRE_NGINX=1). The runs are
// processes of their own: what differs between plain and streaming nginx is timing verdicts, judged
// in a process that runs nothing but the harness, as a user's run is.
const haveNginx = nginxAvailable();
describe.skipIf(!haveNginx && process.env.GWC_REQUIRE_NGINX !== '1')('certify nginx (examples/nginx/plain.conf), verify against plain and streaming', () => {
  it('plain reproduces; streaming does not, and verify names the differing checks', { timeout: 240_000 }, async () => {
    if (!haveNginx) expect.fail('nginx is required (GWC_REQUIRE_NGINX=1)');
    const out = join(mkdtempSync(join(tmpdir(), 'gwc-certify-nginx-')), 'cert');
    const upstreamPort = await freePort();
    const listenPort = await freePort();
    const conf = (name: string) => join(ROOT, 'examples', 'nginx', `${name}.conf`);
    const withNginx = async <T>(name: string, fn: (url: string) => Promise<T>) => {
      const n = await startNginx(conf(name), { listenPort, upstreamPort });
      try {
        return await fn(n.url);
      } finally {
        await n.stop();
      }
    };
    // Without the idle probe (recorded in the folder, so verify leaves it out too): both configs
    // pass it, so it is not among the checks this test expects to differ.
    const args = ['--upstream-listen', `127.0.0.1:${upstreamPort}`, '--seed', '1', ...NO_IDLE_PROBE];
    const certified = await withNginx('plain', (url) => cli(['certify', '--target', url, ...args, '--implementation-name', 'nginx (examples/nginx/plain.conf)', '--implementation-version', 'debian', '--out', out], { timeoutMs: 200_000 }));
    expect([0, 1]).toContain(certified.code);
    const recorded = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunReport;
    const plain = await withNginx('plain', (url) => cli(['verify', out, '--target', url], { timeoutMs: 200_000 }));
    expect(plain.stdout).toMatch(new RegExp(`verdicts: ${recorded.results.length} of ${recorded.results.length} reproduced`));
    expect(plain.stdout).toMatch(/transcript digest matches/);
    expect(plain.code).toBe(0);
    const streaming = await withNginx('streaming', (url) => cli(['verify', out, '--target', url], { timeoutMs: 200_000 }));
    expect(streaming.code).toBe(1);
    // The checks whose verdicts differ are those whose recorded outcomes differ between the two configs.
    const expected = (name: string) => JSON.parse(readFileSync(join(ROOT, 'examples', 'nginx', `expected-${name}.json`), 'utf8')) as { outcomes: Record<string, string> };
    const a = expected('plain').outcomes;
    const b = expected('streaming').outcomes;
    const differing = Object.keys(a).filter((id) => a[id] !== b[id] && recorded.results.some((r) => r.id === id)).sort();
    const reported = [...streaming.stdout.matchAll(/^DIFFERS {4}(\S+)/gm)].map((m) => m[1]).sort();
    expect(reported).toEqual(differing);
    expect(reported.length).toBeGreaterThan(0);
    // The two configs exchange the same bytes but for two checks (the timing checks are one fixed
    // line each in the transcript): the abort check's, which leaves 1 s after its request whatever
    // has arrived (behind the buffering proxy it leaves before the headers, so its exchange has
    // none), and the cut stream's (SSE-CUT-1: plain.conf's HTTP/1.0 hop to the upstream turns a
    // stream cut off upstream into a clean end). The first difference is one of those.
    expect(streaming.stdout).toMatch(/transcript digest differs: .*first difference: exchange \d+: (recorded |now )?(streaming\.abort\.cancels-upstream|streaming\.cut\.no-clean-end) /);
  });
});

// certify and verify show the live console as `run` does: in a terminal, the status line on
// stderr with checks done of all (they printed nothing for minutes before).
describe('certify and verify in a terminal', () => {
  it('draw the status line ([done/total]) on stderr while the checks run, and wipe it at the end', { timeout: 120_000 }, async () => {
    const { main } = await import('../../../cli/program.js');
    const out = join(mkdtempSync(join(tmpdir(), 'gwc-certify-tty-')), 'cert');
    const term = (raw: string[]) => ({ outIsTTY: false, errIsTTY: true, columns: () => 100, writeErr: (s: string) => void raw.push(s) });
    const io = (raw: string[], lines: string[]) => ({ out: (s: string) => void lines.push(s), err: (s: string) => void lines.push(s), env: {}, untilStopped: async () => undefined, term: term(raw) });
    const up = await freePort();
    const certRaw: string[] = [];
    const verifyRaw: string[] = [];
    const lines: string[] = [];
    await withReference(undefined, up, async (target) => {
      const args = ['--target', target, '--upstream-listen', `127.0.0.1:${up}`, '--only', 'messages.path.preserved', '--seed', '3'];
      expect(await main(['certify', ...args, '--implementation-name', 'R', '--implementation-version', '1', '--out', out, '--no-token'], io(certRaw, lines)), lines.join('\n')).toBe(0);
      expect(await main(['verify', out, '--target', target, '--upstream-listen', `127.0.0.1:${up}`], io(verifyRaw, lines)), lines.join('\n')).toBe(0);
    });
    for (const raw of [certRaw, verifyRaw]) {
      expect(raw.join('')).toContain('[0/1]');
      // The last thing written to the terminal wipes the status line.
      expect(raw.at(-1)).toBe('\r\x1b[2K');
    }
  });
});
