// The harness stays calm whatever the gateway does (hostile gateways). For each case
// of test/helpers/hostile-gateway.ts, the built CLI runs in its own process against the hostile
// gateway, which forwards to the harness's recording upstream, and the test asserts: the run
// ends within its time limits with exit 1 (verdicts, never "could not run"); every check has a
// verdict; report.json is valid against the RunReport schema; junit.xml against the Jenkins
// junit-10 XSD; report.html carries no markup from the gateway; the console no control
// character; the credential appears in no output in any encoding; peak RSS stays under 150 MB;
// the harness connects only to the target and its own upstream.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertValidReport } from '../../src/report/shared/validate.js';
import type { RunReport } from '../../src/report/shared/types.js';
import { cli, ROOT } from '../helpers/cli.js';
import { resolveConfig } from '../../src/config/config.js';
import type { RunSettings } from '../../src/check/check.js';
import { CHECKS } from '../../suites/index.js';
import { echoes, HOSTILE_CASES } from '../helpers/hostile-gateway.js';
import { hostileRun, type HostileRun } from '../helpers/hostile-run.js';
import { runOf, startAtOnce } from '../helpers/at-once.js';

const XSD = join(ROOT, 'test', 'schemas', 'jenkins-junit.xsd');
const haveXmllint = spawnSync('xmllint', ['--version']).status === 0;

/**
 * The goal: peak RSS of a run, whatever the gateway sends (the harness process's own high-water
 * mark, VmHWM: test/helpers/hostile-preload.mjs). Every case of the corpus peaks at 103-120 MB.
 */
const RSS_MAX = 150 * 1000 * 1000;
/** Gateways that forward nothing to the recording upstream: stopped at the readiness gate (exit 2). */
const NEVER_FORWARDS = new Set(['close-at-once']);
/** The readiness time-out of these runs (s). */
const READY_S = 8;
/**
 * The checks' time limit: 4 s in the suite (CI time); GWC_HOSTILE_TIMEOUT_MS=default runs with
 * no --timeout-ms at all, the limit a user has (`npm run bench:hostile`).
 */
const AT_DEFAULT = process.env.GWC_HOSTILE_TIMEOUT_MS === 'default';
const TIMEOUT_MS = AT_DEFAULT ? resolveConfig({}, {}, {}).timeoutMs : Number(process.env.GWC_HOSTILE_TIMEOUT_MS ?? 4000);
/** The time-limit flag of these runs: none at the default. */
const LIMIT_ARGS = AT_DEFAULT ? [] : ['--timeout-ms', String(TIMEOUT_MS)];
/** A bound on one run (not a verdict): far past what a run at these limits may take. */
const KILL_AFTER_MS = AT_DEFAULT ? 600_000 : 200_000;
/** The bound: a run ends within this long of its longest check, whatever the gateway sends. */
const PAST_LONGEST_MS = 60_000;
/** Time a check may take past its limit: the runner's own bookkeeping after the limit fires. */
const LIMIT_GRACE_MS = 1500;
/** A check's time limit in these runs, as the runner sets it. */
const SETTINGS = (() => {
  const c = resolveConfig({ timeoutMs: String(TIMEOUT_MS) }, {}, {});
  return { timeoutMs: c.timeoutMs, hangWaitMs: c.hangWaitMs, idle: c.idle, retryBound: c.retryBound } as RunSettings;
})();
function limitOf(id: string): number {
  const check = CHECKS.find((c) => c.id === id);
  return Math.max(TIMEOUT_MS, check?.timeLimitMs?.(SETTINGS) ?? 0);
}

/** Checks run against every case: each protocol, JSON and streams, errors and discovery. */
const SET = [
  'messages.response.unchanged',
  'messages.response.json',
  'messages.auth.credential',
  'errors.passthrough.status',
  'errors.auth.bad-key',
  'streaming.frame.events',
  'discovery.models.json',
  'native.response.unchanged',
  'chat.response.content',
];
/** The WebSocket cases run the socket checks beside the set (the idle probe's silence is the one check left out: it waits by design). */
const SOCKET_SET = ['sockets.upgrade.carried', 'sockets.upgrade.refusal', 'sockets.frames.unchanged', 'sockets.frames.incremental', 'sockets.close.passed', 'sockets.ping.answered', 'sockets.size.large', 'sockets.binary.kept', 'sockets.deflate.consistent'];
/** Cases that also run the large-body check (whose pass must rest on what the client got), or the whole default profile. */
const EXTRA: Record<string, string[] | 'all'> = { 'html-200': ['errors.body.large'], 'false-gzip': ['errors.body.large'], 'echo-credential': 'all', ...Object.fromEntries(['ws-garbage-upgrade', 'ws-endless-frame', 'ws-frame-flood', 'ws-never-closes'].map((n) => [n, SOCKET_SET])) };

/** A token with characters that URL-encoding, JSON and base64 alignments all change. */
const TOKEN = 'sk-ant-api03-gwcHostile/Secret+Token=0123456789abcdef';

/** Every encoding of the token that must appear in no output (computed here, independently of the harness's scrubber). */
function leakForms(): string[] {
  const e = echoes(TOKEN);
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  // Whole encodings of the token, and of the token inside the usual carriers.
  // And the pieces a cut leaves: the token's start as far as it is its own (the harness's bad-key
  // credential shares its first 16 characters), its last 8, and the same of its hex form.
  const hex = Buffer.from(TOKEN).toString('hex');
  return [...new Set([...Object.values(e), b64(`Bearer ${TOKEN}`).slice(8, -4), b64(`user:${TOKEN}`).slice(8, -4), TOKEN.slice(4, -4), TOKEN.slice(0, 18), TOKEN.slice(-8), hex.slice(0, 36), hex.slice(-16)])];
}

/** Bytes a terminal acts on: C0 (but tab and newline), DEL, C1 (as UTF-8 code points), bidi overrides. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function junitValid(xml: string, dir: string): { status: number | null; stderr: string } {
  const f = join(dir, 'check.xml');
  writeFileSync(f, xml);
  const v = spawnSync('xmllint', ['--noout', '--schema', XSD, f], { encoding: 'utf8' });
  return { status: v.status, stderr: v.stderr };
}

function assertCalm(name: string, r: HostileRun, checks: number | 'all') {
  const where = `${name}: ${r.stderr.slice(0, 400)}`;
  // Verdicts and exit 1, never a crash (signal) and never exit 2.
  expect(r.signal, where).toBeNull();
  expect(r.code, where).toBe(1);
  expect(r.stderr, where).not.toMatch(/internal error|at .*\.js:\d+/);
  // Every check has a verdict, none the harness's own error.
  expect(r.files.json, where).toBeTypeOf('string');
  const report = JSON.parse(r.files.json!) as RunReport;
  assertValidReport(report);
  if (checks !== 'all') expect(report.results).toHaveLength(checks);
  expect(report.results.filter((x) => x.outcome === 'error').map((x) => `${x.id}: ${x.message}`)).toEqual([]);
  expect(report.results.filter((x) => x.outcome === 'fail' || x.outcome === 'timeout').length, where).toBeGreaterThan(0);
  // Within its time limit: the run's, or the check's own when longer, which this process's holds
  // (a flood keeps it busy) may put off by at most its own length (src/runner/runner.ts).
  for (const x of report.results) expect(x.durationMs, `${name} ${x.id}`).toBeLessThanOrEqual(2 * limitOf(x.id) + LIMIT_GRACE_MS);
  // The run ends within a minute of its longest check: by its own figure, and as the process's wall time (start-up, readiness and reports included).
  const longest = Math.max(...report.results.map((x) => x.durationMs));
  expect(report.durationMs, `${name}: the run's own duration`).toBeLessThanOrEqual(longest + PAST_LONGEST_MS);
  expect(r.ms, `${name}: the process's wall time`).toBeLessThanOrEqual(longest + PAST_LONGEST_MS);
  // JUnit valid against the XSD.
  expect(r.files.junit).toBeTypeOf('string');
  if (haveXmllint) {
    const v = junitValid(r.files.junit!, r.out);
    expect(v.status, v.stderr).toBe(0);
  } else expect(process.env.GWC_REQUIRE_TOOLS, 'xmllint is required in CI (apt-get install libxml2-utils)').not.toBe('1');
  // HTML inert: no markup from the gateway survives as markup (the report's one script is its own, allowed by its CSP hash).
  expect(r.files.html).toBeTypeOf('string');
  expect(r.files.html!.match(/<script/gi)).toHaveLength(1);
  expect(r.files.html!).not.toMatch(/<img|<\/testcase|<!\[CDATA|<a href|javascript:alert\(1\)"/i);
  // Console: no control character from the gateway.
  expect(r.stdout).not.toMatch(CONTROL);
  expect(r.stderr).not.toMatch(CONTROL);
  // The credential in no output, in no encoding.
  const outputs = { stdout: r.stdout, stderr: r.stderr, json: r.files.json!, junit: r.files.junit!, html: r.files.html! };
  for (const form of leakForms()) for (const [k, text] of Object.entries(outputs)) expect(text.includes(form), `${name}: ${k} holds the credential as ${form}`).toBe(false);
  for (const [k, text] of Object.entries(outputs)) expect(text.toLowerCase().includes(Buffer.from(TOKEN).toString('hex').toLowerCase()), `${name}: ${k} holds the credential in hex`).toBe(false);
  // Bounded memory.
  expect(r.rss, `${name}: peak RSS`).toBeGreaterThan(0);
  expect(r.rss, `${name}: peak RSS ${Math.round(r.rss / 1e6)} MB`).toBeLessThanOrEqual(RSS_MAX);
  // Only the target and its own upstream.
  const allowed = new Set([`127.0.0.1:${new URL(r.target).port}`, `127.0.0.1:${r.upstreamPort}`]);
  expect(r.connections.length).toBeGreaterThan(0);
  expect(r.connections.map((c) => `${c.host}:${c.port}`).filter((c) => !allowed.has(c))).toEqual([]);
}

/**
 * The cases run in two queues started together: the heavy ones (floods and large answers: CPU
 * and memory for the harness and for this process, which serves them) one after another, and
 * beside them the light ones (hangs, drips, small malformed answers: they mostly wait)
 * LIGHT_AT_ONCE at a time. So at most one heavy case runs at a time, never beside another
 * flood, and at most three harness processes share the cores: the time limits judged here
 * (every check within its limit plus LIMIT_GRACE_MS) keep their margin. All 14 light cases at
 * once on 2 cores did not: a check's bookkeeping after its limit took 1.6 s.
 */
const LIGHT_AT_ONCE = 2;
const HEAVY = new Set(['ws-endless-frame', 'ws-frame-flood', 'endless-json', 'json-500mb', 'gzip-bomb', 'sse-one-line', 'echo-credential', 'wrong-status-line', 'huge-header', 'many-headers', 'flood-1xx', 'deep-json', 'deep-json-stream', 'endless-whitespace', 'brotli-bomb', 'random-bytes', 'header-100mib-value', 'ten-thousand-lines', 'echo-in-stream', 'random-after-headers']);
/**
 * Cases judged on their own terms, not by assertCalm: a gateway whose only fault is closing
 * kept-alive connections silently may pass every check (the client sends again on a fresh
 * connection); what must hold is that no body verdict rests on a connection failure.
 */
const CONNECTION_CASES = new Set(['silent-close']);
/** The body-property checks (checkProperty: generated bodies, shrunk counterexamples). */
const PROPERTY_CHECKS = ['messages.body.semantic', 'messages.body.bytes', 'native.body.semantic', 'chat.body.semantic'];
/** GWC_HOSTILE_PROFILE=all runs every case with the whole default profile, as a user's run would (`npm run bench:hostile -- --all`). */
const WHOLE_PROFILE = process.env.GWC_HOSTILE_PROFILE === 'all';
/** GWC_HOSTILE_CASES=a,b runs only those cases (for measuring one case; the full test runs all). */
const CASES = process.env.GWC_HOSTILE_CASES ? HOSTILE_CASES.filter((c) => process.env.GWC_HOSTILE_CASES!.split(',').includes(c.name)) : HOSTILE_CASES;
let runs = new Map<string, Promise<HostileRun>>();
function startRuns(): void {
  const one = (c: (typeof HOSTILE_CASES)[number]): [string, () => Promise<HostileRun>] => {
    const extra = WHOLE_PROFILE ? 'all' : EXTRA[c.name];
    const ids = CONNECTION_CASES.has(c.name) ? PROPERTY_CHECKS : [...SET, ...(extra ?? [])];
    const only = extra === 'all' ? [] : ids.flatMap((id) => ['--only', id]);
    return [c.name, () => hostileRun(c.name, { token: TOKEN, args: [...only, '--runs', '2', ...LIMIT_ARGS, '--ready-timeout-s', String(READY_S)], killAfterMs: KILL_AFTER_MS })];
  };
  const heavy = CASES.filter((c) => HEAVY.has(c.name));
  const light = CASES.filter((c) => !HEAVY.has(c.name));
  runs = new Map([...startAtOnce(heavy.map(one), 1), ...startAtOnce(light.map(one), LIGHT_AT_ONCE)]);
}

/**
 * A gateway that closes kept-alive connections without saying so: the body properties are
 * judged on answers (the client sends a request once more on a fresh connection, as the SDKs
 * do), never on a connection failure, and none is shrunk as a counterexample.
 */
function connectionCase(name: string, r: HostileRun): void {
  const report = JSON.parse(r.files.json!) as RunReport;
  table.push(row(name, r, `${report.summary.pass} pass, ${report.summary.fail} fail, ${report.summary.timeout} timeout, ${report.summary.warn} warn`));
  expect(r.code, r.stderr).not.toBe(2);
  assertValidReport(report);
  // With the whole profile every check runs: the gateway's other faults (it answers with the
  // upstream's whole body, status and content type only: streams buffered, headers dropped) fail
  // theirs; the property checks are judged as alone.
  const ids = report.results.map((x) => x.id);
  if (WHOLE_PROFILE) expect(ids).toEqual(expect.arrayContaining(PROPERTY_CHECKS));
  else expect(ids.sort()).toEqual([...PROPERTY_CHECKS].sort());
  for (const x of report.results) {
    expect(x.message, `${x.id}: a connection failure judged as a body`).not.toMatch(/broke on a generated body.*see evidence/);
    if (x.outcome !== 'pass' && PROPERTY_CHECKS.includes(x.id)) expect(x.message, x.id).toMatch(/connection failed/);
  }
  expect(r.rss).toBeLessThanOrEqual(RSS_MAX);
}

/** One row of the table printed at the end: case, exit, verdicts, time, RSS, and the outputs holding any form or piece of the token. */
const table: string[] = [];
function row(name: string, r: HostileRun, verdicts: string): string {
  const outputs = { console: `${r.stdout}${r.stderr}`, json: r.files.json ?? '', junit: r.files.junit ?? '', html: r.files.html ?? '' };
  const leaks = Object.entries(outputs)
    .filter(([, text]) => leakForms().some((f) => text.includes(f)))
    .map(([k]) => k);
  const longest = r.files.json ? Math.max(0, ...(JSON.parse(r.files.json) as RunReport).results.map((x) => x.durationMs)) : NaN;
  return `| ${name} | exit ${r.code} | ${verdicts} | ${(r.ms / 1000).toFixed(1)} s | ${(longest / 1000).toFixed(1)} s | ${Math.round(r.rss / 1e6)} MB | ${leaks.join(', ') || 'none'} |`;
}

describe('hostile gateways', () => {
  it('the credential forms the test looks for are present in what the gateway sends (the test has teeth)', () => {
    const e = echoes(TOKEN);
    expect(e.url).not.toBe(TOKEN);
    expect(e.jsonU).toMatch(/^\\u0073/);
    expect(leakForms().length).toBeGreaterThan(10);
  });

  beforeAll(startRuns);

  for (const c of CASES) {
    const extra = WHOLE_PROFILE ? 'all' : EXTRA[c.name];
    const checks = extra === 'all' ? 'all' : SET.length + (extra?.length ?? 0);
    it(`${c.name}: ${c.what}`, { timeout: KILL_AFTER_MS + 40_000 }, async () => {
      const r = await runOf(runs, c.name);
      if (NEVER_FORWARDS.has(c.name)) {
        // A gateway that forwards nothing to the mock is a setup that cannot work: the
        // readiness gate says so in one line, with what the gateway did, within its time-out.
        table.push(row(c.name, r, `readiness gate: ${r.stderr.trim().slice(0, 80)}...`));
        expect(r.signal).toBeNull();
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
        expect(r.stderr).toMatch(/^gw-conformance: error GWC-NOT-READY: gateway not ready: in \d+ s no messages canary .* reached the recording upstream/);
        expect(r.stderr).not.toMatch(/internal error|at .*\.js:\d+/);
        expect(r.stdout).not.toMatch(CONTROL);
        expect(r.stderr).not.toMatch(CONTROL);
        for (const f of leakForms()) expect(`${r.stdout}${r.stderr}`).not.toContain(f);
        // Within its time-out: the gate's READY_S, and the process's start and exit around it,
        // measured now as what a run's process takes to start and end without a gate (a dry run
        // loads a run's modules; 0.6 s on a quiet machine, seconds with the cores taken), twice
        // over, and 10 s more (18.6 s of a former fixed 18 s was seen with two CPU hogs beside).
        const startAndExit = (await cli(['demo', '--dry-run'])).ms;
        expect(r.ms, `the dry run took ${startAndExit} ms`).toBeLessThan(READY_S * 1000 + 2 * startAndExit + 10_000);
        expect(r.rss).toBeLessThanOrEqual(RSS_MAX);
        return;
      }
      if (CONNECTION_CASES.has(c.name)) return connectionCase(c.name, r);
      const report = r.files.json ? (JSON.parse(r.files.json) as RunReport) : null;
      table.push(row(c.name, r, report ? `${report.summary.pass} pass, ${report.summary.fail} fail, ${report.summary.timeout} timeout, ${report.summary.warn} warn` : 'no report'));
      assertCalm(c.name, r, checks);
      // A check cut off while an answer kept coming says what arrived, how much and for how long.
      // With the whole profile the run-level bound (src/runner/hung.ts) stops the run before this
      // check starts: then each check the bound names timed out, and says so.
      if (c.name === 'hang-after-headers') {
        const byId = (id: string) => report!.results.find((y) => y.id === id)!;
        const x = byId('messages.response.unchanged');
        if (WHOLE_PROFILE && x.outcome === 'skip') expect(x.message).toMatch(/^not run: the gateway hung on \d+ checks in a row/);
        const cut = WHOLE_PROFILE && x.outcome === 'skip' ? (x.evidence.hungOn as string[]).map(byId) : [x];
        expect(cut.length).toBeGreaterThan(0);
        for (const y of cut) {
          expect([y.id, y.outcome]).toEqual([y.id, 'timeout']);
          expect(y.message).toMatch(/status 200 after \d+ ms, then \d+ body bytes in \d+ chunks? over \d+ ms/);
          expect((y.evidence.arrived as Array<{ bytes: number }>).length).toBeGreaterThan(0);
        }
      }
      // An answer that never ends is cut by the first of its two bounds, each saying how much came
      // in how long: ANSWER_MAX (16 MiB; a fail at once), or on a machine so loaded that 16 MiB
      // take longer than the check's time limit (4 s here), that limit (a time-out).
      if (c.name === 'endless-json') {
        const x = report!.results.find((y) => y.id === 'messages.response.unchanged')!;
        const arrived = /status 200 after \d+ ms, then \d+ body bytes in \d+ chunks? over \d+ ms/;
        if (x.outcome === 'fail') expect(x.message).toMatch(new RegExp(`the answer went on past 16 MiB, .*${arrived.source}`));
        else expect([x.outcome, x.message]).toEqual(['timeout', expect.stringMatching(arrived)]);
      }
    });
  }

  // The figures for the closing note (GWC_HOSTILE_TABLE=1), not an assertion.
  afterAll(() => {
    if (process.env.GWC_HOSTILE_TABLE) process.stdout.write(`\n| case | exit | verdicts | wall | longest check | peak RSS | token in |\n|---|---|---|---|---|---|---|\n${table.join('\n')}\n`);
  });
});
