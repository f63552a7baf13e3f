// The client profile (--profile client): real clients run straight and through the reference
// gateway. The clean gateway passes for each client; faults of the reference gateway fail the
// check of the requirement they break, with the difference as evidence. The SDK clients run in
// this process, and every socket it opens meanwhile goes to loopback; Claude Code runs only in a
// loopback-only network namespace (the command runs itself again inside `unshare -n`). Through
// a plain nginx, the requests arrive as sent and the streams in one piece; through HAProxy
// with http-no-delay and through Caddy, each SDK's session is the one it has straight.
//
// Claude Code needs its binary under GWC_CLAUDE_DIR (.ci/run installs it), root, `unshare` and
// `ip`; its tests are skipped only when the binary is absent and GWC_REQUIRE_CLAUDE is not 1.
// Gemini CLI likewise, under GWC_GEMINI_CLI_DIR, with GWC_REQUIRE_GEMINI_CLI.
import { spawnSync } from 'node:child_process';
import dc from 'node:diagnostics_channel';
import type net from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../cli/main.js';
import { cli, ROOT } from '../../helpers/cli.js';
import { nginxAvailable } from '../../helpers/nginx.js';
import { claudeBinary } from '../../../src/real-clients/claude-code.js';
import { geminiCliScript } from '../../../src/real-clients/gemini-cli.js';
import { compareRequests, compareTiming } from '../../../src/real-clients/straight-vs-gateway.js';
import { type ClientRun, type UpstreamRequest } from '../../../src/real-clients/types.js';
import type { CheckResult, RunReport } from '../../../src/report/shared/types.js';

const SDKS = 'anthropic-sdk,openai,genai';
const work = mkdtempSync(path.join(os.tmpdir(), 'gwc-client-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
/** `demo --profile client` in this process; the report and every remote address a socket connected to. */
async function demo(clients: string, fault?: string, extra: string[] = [], command = 'demo'): Promise<{ code: number; report: RunReport; remotes: string[]; out: string }> {
  const out = path.join(work, `run-${++n}`);
  const remotes: string[] = [];
  const onSocket = ({ socket }: { socket: net.Socket }) => socket.once('connect', () => remotes.push(`${socket.remoteAddress}`));
  dc.subscribe('net.client.socket', onSocket as (m: unknown) => void);
  let text = '';
  const io = { out: (s: string) => void (text += `${s}\n`), err: (s: string) => void (text += `${s}\n`), env: { ...process.env, GWC_CLIENT_NETNS: '' }, untilStopped: async () => {} };
  try {
    const code = await main([command, '--profile', 'client', '--clients', clients, ...(fault ? ['--fault', fault] : []), '--reporter', 'json', '--out', out, ...extra], io);
    return { code, report: JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as RunReport, remotes, out: text };
  } finally {
    dc.unsubscribe('net.client.socket', onSocket as (m: unknown) => void);
  }
}

const result = (r: RunReport, id: string) => r.results.find((x) => x.id === id) as CheckResult;
type Diff = { what: string; straight: string; gateway: string; diff: string };
const diffs = (r: CheckResult, client: string) => ((r.evidence as { clients: Record<string, { differences: Diff[] }> }).clients[Object.keys((r.evidence as { clients: object }).clients).find((k) => k.startsWith(`${client} `))!]?.differences ?? []);

describe('the client profile with the official SDKs (in this process)', () => {
  /** The clean run, shared by the tests that read it; with the wall time around it, on the harness's clock. */
  let cleanRun: Promise<{ code: number; report: RunReport; remotes: string[]; out: string; wallMs: number }> | undefined;
  const clean = () =>
    (cleanRun ??= (async () => {
      const t = performance.now();
      const r = await demo(SDKS);
      return { ...r, wallMs: performance.now() - t };
    })());

  it('the clean reference gateway passes the three checks for each SDK, and every socket went to loopback', async () => {
    const { code, report, remotes } = await clean();
    expect(report.results.map((r) => [r.id, r.outcome])).toEqual([
      ['client.upstream.same-requests', 'pass'],
      ['client.answers.same', 'pass'],
      ['client.timing.no-added-delay', 'pass'],
    ]);
    expect(code).toBe(0);
    const clients = Object.keys((result(report, 'client.answers.same').evidence as { clients: object }).clients);
    expect(clients.map((c) => c.split(' ')[0])).toEqual(['anthropic-sdk', 'openai', 'genai']);
    // The SDKs share fetch's connection pool: at least one socket to the upstream and one to the gateway.
    expect(remotes.length).toBeGreaterThanOrEqual(2);
    expect(new Set(remotes)).toEqual(new Set(['127.0.0.1']));
  });

  it("the run's duration counts the client sessions: at least every streamed step's time, at most the wall time around the run", async () => {
    const { report, out, wallMs } = await clean();
    const timing = Object.values((result(report, 'client.timing.no-added-delay').evidence as { clients: Record<string, { timing: Array<{ doneMs: { straight: number; gateway: number } }> }> }).clients);
    const streamed = timing.flatMap((c) => c.timing).reduce((sum, row) => sum + row.doneMs.straight + row.doneMs.gateway, 0);
    // The sessions ran one after the other inside the run: their streamed steps alone are a lower bound.
    expect(streamed).toBeGreaterThan(0);
    expect(report.durationMs).toBeGreaterThanOrEqual(streamed);
    expect(report.durationMs).toBeLessThanOrEqual(Math.ceil(wallMs));
    expect(Date.parse(report.finishedAt) - Date.parse(report.startedAt)).toBeGreaterThanOrEqual(streamed);
    expect(out).toContain(` ${(report.durationMs / 1000).toFixed(1)} s`);
  });

  it('sort-keys (a body rewritten) fails CLIENT-1 with the first differing byte of the anthropic SDK\'s body', async () => {
    const { code, report } = await demo('anthropic-sdk', 'sort-keys');
    expect(code).toBe(1);
    const r = result(report, 'client.upstream.same-requests');
    expect(r.outcome).toBe('fail');
    const [d] = diffs(r, 'anthropic-sdk');
    expect(d.what).toMatch(/^request 2 \(POST \/v1\/messages\) body$/);
    expect(d.diff).toMatch(/^at byte 3 of /);
    expect(d.straight.startsWith('{"model"')).toBe(true);
    expect(d.gateway.startsWith('{"max_tokens"')).toBe(true);
    expect(result(report, 'client.answers.same').outcome).toBe('pass');
  });

  it('strip-stream-cache-usage fails CLIENT-2: the usage the SDK parsed lost its cache fields', async () => {
    const { report } = await demo('anthropic-sdk', 'strip-stream-cache-usage');
    const r = result(report, 'client.answers.same');
    expect(r.outcome).toBe('fail');
    const [d] = diffs(r, 'anthropic-sdk');
    expect(d.what).toBe('step 2 "messages.create stream (tool turn)" result');
    expect(d.diff).toBe('at $[0].message.usage.cache_creation_input_tokens');
    expect([d.straight, d.gateway]).toEqual(['300', 'undefined']);
    expect(result(report, 'client.upstream.same-requests').outcome).toBe('pass');
  });

  it('drop-usage-chunk fails CLIENT-2 for openai: the include_usage chunk is missing from what the SDK yielded', async () => {
    const { report } = await demo('openai', 'drop-usage-chunk');
    const [d] = diffs(result(report, 'client.answers.same'), 'openai');
    expect(d.what).toBe('step 3 "chat.completions.create stream (tool result turn, include_usage)" result');
    expect(d.straight).toMatch(/^\{"id":"chatcmpl-gwcsession\d+",.*"choices":\[\],"usage":\{"prompt_tokens":1200,/);
    expect(d.gateway).toBe('undefined');
  });

  it('buffer-stream fails CLIENT-2 for every SDK: the answer reached the client in one piece', async () => {
    const { report } = await demo(SDKS, 'buffer-stream');
    const r = result(report, 'client.answers.same');
    for (const c of SDKS.split(',')) expect(diffs(r, c).map((d) => d.diff), c).toContain('the answer arrived in one piece or nearly (under 50% of the straight spread)');
  });

  it('delay-per-event-210 warns CLIENT-3 (a SHOULD: exit 0) with the straight and gateway times to first token', async () => {
    const { code, report } = await demo('anthropic-sdk', 'delay-per-event-210', ['--sse-max-lag-ms', '150']);
    const r = result(report, 'client.timing.no-added-delay');
    expect(r.outcome).toBe('warn');
    expect(code).toBe(0);
    const d = diffs(r, 'anthropic-sdk').find((x) => x.what.endsWith('time to first token'))!;
    expect(d.diff).toBe('more than 150 ms added');
    expect(parseInt(d.gateway, 10) - parseInt(d.straight, 10)).toBeGreaterThan(150);
  });

  it("shed-first-attempt (each SDK's first attempt answered 529) warns CLIENT-3: every request reached the upstream as the SDK's own retry", async () => {
    const { code, report } = await demo('anthropic-sdk,openai', 'shed-first-attempt');
    const r = result(report, 'client.timing.no-added-delay');
    expect(r.outcome).toBe('warn');
    const retried = (client: string) => diffs(r, client).find((d) => d.what === 'client retries (x-stainless-retry-count above 0)');
    expect(retried('anthropic-sdk')).toEqual({ what: 'client retries (x-stainless-retry-count above 0)', straight: '[]', gateway: JSON.stringify(['GET /v1/models', 'POST /v1/messages', 'POST /v1/messages', 'POST /v1/messages', 'POST /v1/messages/count_tokens']), diff: '5 more through the gateway' });
    expect(retried('openai')).toEqual({ what: 'client retries (x-stainless-retry-count above 0)', straight: '[]', gateway: JSON.stringify(['GET /v1/models', 'POST /v1/chat/completions', 'POST /v1/chat/completions', 'POST /v1/chat/completions']), diff: '4 more through the gateway' });
    // What reached the upstream is the retry: the same request, its retry count 1 instead of 0 (CLIENT-1); the client got its answers all the same.
    const [first] = diffs(result(report, 'client.upstream.same-requests'), 'anthropic-sdk');
    expect(first).toMatchObject({ what: 'request 1 (GET /v1/models) header x-stainless-retry-count', straight: '["0"]', gateway: '["1"]' });
    expect(result(report, 'client.answers.same').outcome).toBe('pass');
    expect(code).toBe(1);
  });

  it('a client that is not installed is one line and exit 2 (the SDKs: test/unit/core/optional.test.ts)', async () => {
    const r = await cli(['demo', '--profile', 'client', '--clients', 'claude-code', '--reporter', 'json', '--out', path.join(work, 'absent')], { env: { GWC_CLAUDE_DIR: path.join(work, 'no-claude'), GWC_CLAUDE_BIN: '' } });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([`gw-conformance: error GWC-BAD-FLAG: --clients claude-code: Claude Code is not installed at ${path.join(work, 'no-claude')}/node_modules/@anthropic-ai/claude-code-linux-x64/claude: npm install --prefix ${path.join(work, 'no-claude')} --save-exact @anthropic-ai/claude-code-linux-x64@2.1.330 (or set GWC_CLAUDE_DIR)`]);
  });
});

describe('the client profile through a gateway that needs a base path and a routing header', () => {
  it('each SDK is pointed at its protocol\'s --base-path and sends the --header values through the gateway only: it passes; without them every SDK fails', async () => {
    const gw = ['--gateway-cmd', `node ${ROOT}/bin/gw-conformance.js reference --listen 127.0.0.1:{listen_port} --upstream {upstream_url} --base-path /gw --require-header x-route=r1`];
    const targeting = ['--base-path', 'messages=/gw', '--base-path', 'chat=/gw', '--base-path', 'native=/gw', '--header', 'x-route=r1'];
    const { code, report } = await demo(SDKS, undefined, [...gw, ...targeting], 'run');
    expect(report.results.map((r) => [r.id, r.outcome])).toEqual([
      ['client.upstream.same-requests', 'pass'],
      ['client.answers.same', 'pass'],
      ['client.timing.no-added-delay', 'pass'],
    ]);
    expect(code).toBe(0);
    const bare = await demo(SDKS, undefined, gw, 'run');
    expect(bare.code).toBe(1);
    const r = result(bare.report, 'client.answers.same');
    expect(r.outcome).toBe('fail');
    for (const c of SDKS.split(',')) expect(diffs(r, c).length, c).toBeGreaterThan(0);
  });
});

const nginxRequired = process.env.GWC_REQUIRE_NGINX === '1';
describe.skipIf(!nginxAvailable() && !nginxRequired)('the client profile through a plain nginx (examples/nginx/plain.conf)', () => {
  it('every request arrives as sent (nginx sets only headers of the declared proxy set); every streamed answer arrives in one piece (proxy buffering)', async () => {
    const cmd = `sh ${ROOT}/scripts/nginx-gateway.sh ${ROOT}/examples/nginx/plain.conf {listen_port} {upstream_port} {workdir}`;
    const { code, report } = await demo(SDKS, undefined, ['--gateway-cmd', cmd], 'run');
    expect(code).toBe(1);
    expect(result(report, 'client.upstream.same-requests').outcome).toBe('pass');
    const r = result(report, 'client.answers.same');
    expect(r.outcome).toBe('fail');
    for (const c of SDKS.split(',')) expect(diffs(r, c).map((d) => d.diff), c).toContain('the answer arrived in one piece or nearly (under 50% of the straight spread)');
  });
});

// HAProxy (examples/haproxy/streaming.cfg: option http-no-delay) and Caddy (examples/caddy/plain.Caddyfile)
// send each event on as it comes: the SDKs' sessions through them are those straight. Through
// haproxy.cfg (without http-no-delay) events arrive in twos and threes, and which client's
// answer falls under the incremental bound varies from run to run: only its requests are asserted.
const haproxyCmd = (cfg: string) => `sh ${ROOT}/scripts/haproxy-gateway.sh ${ROOT}/examples/haproxy/${cfg} {listen_port} {upstream_port} {workdir}`;
const caddyCmd = `GWC_SITE=http://127.0.0.1:{listen_port} GWC_UPSTREAM={upstream_url} XDG_DATA_HOME={workdir} XDG_CONFIG_HOME={workdir} exec caddy run --adapter caddyfile --config ${ROOT}/examples/caddy/plain.Caddyfile`;
const haproxy = spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0 || process.env.GWC_REQUIRE_HAPROXY === '1';
const caddy = spawnSync('caddy', ['version'], { stdio: 'ignore' }).status === 0 || process.env.GWC_REQUIRE_CADDY === '1';
describe('the client profile through HAProxy and Caddy', () => {
  const clean = async (cmd: string) => {
    const { code, report } = await demo(SDKS, undefined, ['--gateway-cmd', cmd], 'run');
    const why = report.results.map((r) => `${r.id}: ${r.outcome}: ${r.message}`).join('\n');
    expect(report.results.map((r) => [r.id, r.outcome]), why).toEqual([
      ['client.upstream.same-requests', 'pass'],
      ['client.answers.same', 'pass'],
      ['client.timing.no-added-delay', 'pass'],
    ]);
    expect(code).toBe(0);
  };
  it.skipIf(!haproxy)('HAProxy, streaming.cfg: every SDK session is the same as straight', () => clean(haproxyCmd('streaming.cfg')));
  it.skipIf(!caddy)('Caddy, plain.Caddyfile: every SDK session is the same as straight', () => clean(caddyCmd));
  it.skipIf(!haproxy)('HAProxy, haproxy.cfg: every request arrives as sent', async () => {
    const { report } = await demo(SDKS, undefined, ['--gateway-cmd', haproxyCmd('haproxy.cfg')], 'run');
    expect(result(report, 'client.upstream.same-requests').outcome, result(report, 'client.upstream.same-requests').message).toBe('pass');
  });
});

describe('the declared proxy headers', () => {
  const req = (headers: Array<[string, string]>): UpstreamRequest => ({ seq: 1, method: 'POST', url: '/v1/messages', headers, body: '', receivedAt: 0, status: 200, ended: 'answered', durationMs: 1 });
  const run = (headers: Array<[string, string]>) => ({ volatile: {}, requests: [req(headers)] }) as unknown as ClientRun;
  const bases = { straight: 'http://127.0.0.1:1', gateway: 'http://127.0.0.1:2' };
  it('host, x-forwarded-*, x-real-ip, via and connection headers may change; any other header may not', () => {
    const straight = run([['Host', '127.0.0.1:1'], ['Connection', 'keep-alive'], ['anthropic-beta', 'a-2025-01-01']]);
    const gateway = run([['host', 'upstream'], ['x-forwarded-for', '127.0.0.1'], ['X-Real-IP', '127.0.0.1'], ['via', '1.1 gw'], ['connection', 'close'], ['anthropic-beta', 'a-2025-01-01'], ['x-gateway', '1']]);
    expect(compareRequests(straight, gateway, bases)).toEqual([{ what: 'request 1 (POST /v1/messages) header x-gateway', straight: '[]', gateway: '["1"]', diff: 'added by the gateway' }]);
  });

  it('a header the client sends the gateway only (its targeting) is not compared, forwarded or not', () => {
    const straight = run([['anthropic-beta', 'a-2025-01-01']]);
    const gateway = run([['anthropic-beta', 'a-2025-01-01'], ['x-route', 'r1']]);
    expect(compareRequests(straight, gateway, bases, ['x-route'])).toEqual([]);
    expect(compareRequests(straight, gateway, bases)).toHaveLength(1);
  });

  it("a retry of the client's own (x-stainless-retry-count above 0) through the gateway is a CLIENT-3 difference; the same request twice straight is not", () => {
    const timed = (requests: UpstreamRequest[]) => ({ steps: [], files: {}, exit: { code: 0, timedOut: false }, requests }) as unknown as ClientRun;
    const first = req([['x-stainless-retry-count', '0']]);
    const retried = req([['x-stainless-retry-count', '1']]);
    const bounds = { maxAddedMs: 1000, maxAddedGapMs: 1000 };
    expect(compareTiming(timed([first]), timed([first, retried]), bounds).differences).toEqual([
      { what: 'client retries (x-stainless-retry-count above 0)', straight: '[]', gateway: '["POST /v1/messages"]', diff: '1 more through the gateway' },
    ]);
    expect(compareTiming(timed([first, retried]), timed([first, retried]), bounds).differences).toEqual([]);
  });

  it("a retry the client reports itself (Claude Code's api_retry line) through the gateway is a CLIENT-3 difference", () => {
    const out = (system: unknown[]) => ({ steps: [{ name: 'claude -p', error: null, result: { system } }], files: {}, exit: { code: 0, timedOut: false }, requests: [] }) as unknown as ClientRun;
    const init = { type: 'system', subtype: 'init' };
    const retry = { type: 'system', subtype: 'api_retry', attempt: 1, max_retries: 10, retry_delay_ms: 568, error_status: 529, error: 'overloaded' };
    const bounds = { maxAddedMs: 1000, maxAddedGapMs: 1000 };
    expect(compareTiming(out([init]), out([init, retry]), bounds).differences).toEqual([
      { what: "client retries it reported (Claude Code's api_retry lines)", straight: '[]', gateway: '["attempt 1: 529 overloaded"]', diff: '1 more through the gateway' },
    ]);
    expect(compareTiming(out([init, retry]), out([init, retry]), bounds).differences).toEqual([]);
  });
});

const CLAUDE = claudeBinary();
const claudeRequired = process.env.GWC_REQUIRE_CLAUDE === '1';
describe.skipIf(!existsSync(CLAUDE) && !claudeRequired)('the client profile with Claude Code (in a loopback-only namespace)', () => {
  /** The CLI as a user runs it: as root it runs itself again inside `unshare -n`. */
  async function claude(fault?: string, extra: string[] = [], command = 'demo') {
    const out = path.join(work, `claude-${++n}`);
    const r = await cli([command, '--profile', 'client', '--clients', 'claude-code', ...(fault ? ['--fault', fault] : []), ...extra, '--reporter', 'json', '--reporter', 'console', '--out', out], { timeoutMs: 120_000 });
    return { ...r, report: JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as RunReport };
  }

  it('the clean reference gateway passes; the client ran in a namespace with only loopback, its tool round trip and discovery reached the upstream', async () => {
    expect(existsSync(CLAUDE), `GWC_REQUIRE_CLAUDE=1 but ${CLAUDE} is absent`).toBe(true);
    const { code, report, stdout } = await claude();
    expect(report.results.map((r) => r.outcome)).toEqual(['pass', 'pass', 'pass']);
    expect(code).toBe(0);
    const ev = result(report, 'client.upstream.same-requests').evidence as { network: string; clients: Record<string, { requests: { straight: number } }> };
    expect(ev.network).toBe('loopback-only network namespace (unshare -n; interfaces: lo)');
    expect(stdout).toContain('on loopback-only network namespace (unshare -n; interfaces: lo)');
    // Discovery, the tool turn and the turn carrying the tool's result.
    expect(Object.values(ev.clients)[0].requests.straight).toBe(3);
  }, 120_000);

  it('drop-anthropic-beta fails CLIENT-1: the client\'s anthropic-beta header was removed by the gateway', async () => {
    const { code, report } = await claude('drop-anthropic-beta');
    expect(code).toBe(1);
    const [d] = diffs(result(report, 'client.upstream.same-requests'), 'claude-code');
    expect(d.what).toBe('request 2 (POST /v1/messages?beta=true) header anthropic-beta');
    expect(d.diff).toBe('removed by the gateway');
    expect(JSON.parse(d.straight)[0]).toMatch(/^claude-code-20250219,/);
    expect(d.gateway).toBe('[]');
  }, 120_000);

  it('through a gateway that needs a base path and a routing header, the client gets both (the header through ANTHROPIC_CUSTOM_HEADERS) and passes', async () => {
    const gw = `node ${ROOT}/bin/gw-conformance.js reference --listen 127.0.0.1:{listen_port} --upstream {upstream_url} --base-path /gw --require-header x-route=r1`;
    const { code, report, stderr } = await claude(undefined, ['--gateway-cmd', gw, '--base-path', 'messages=/gw', '--header', 'messages:x-route=r1'], 'run');
    expect(report.results.map((r) => [r.id, r.outcome]), stderr).toEqual([
      ['client.upstream.same-requests', 'pass'],
      ['client.answers.same', 'pass'],
      ['client.timing.no-added-delay', 'pass'],
    ]);
    expect(code).toBe(0);
  }, 120_000);

  it("shed-first-attempt: Claude Code's own retries (each a first attempt) are in its output: CLIENT-3 counts its api_retry lines; it gives up (CLIENT-2)", async () => {
    const { report } = await claude('shed-first-attempt');
    const retried = diffs(result(report, 'client.timing.no-added-delay'), 'claude-code').find((d) => d.what === "client retries it reported (Claude Code's api_retry lines)")!;
    expect(retried.straight).toBe('[]');
    expect(JSON.parse(retried.gateway)[0]).toBe('attempt 1: 529 overloaded');
    expect(diffs(result(report, 'client.answers.same'), 'claude-code')[0]).toMatchObject({ what: 'exit status', diff: 'exit 0 straight, 1 through the gateway' });
  }, 120_000);

  it('slow-discovery: the client gives up on discovery through the gateway: no cache file (CLIENT-2), its own time-out fired (CLIENT-3)', async () => {
    const { report } = await claude('slow-discovery');
    const two = diffs(result(report, 'client.answers.same'), 'claude-code');
    expect(two.map((d) => d.what)).toContain('files the client wrote');
    const three = diffs(result(report, 'client.timing.no-added-delay'), 'claude-code');
    expect(three.map((d) => d.diff)).toContain('the client gave up waiting for what fills it (its own time-out)');
  }, 120_000);
});

const GEMINI = geminiCliScript();
const geminiRequired = process.env.GWC_REQUIRE_GEMINI_CLI === '1';
describe.skipIf(!existsSync(GEMINI) && !geminiRequired)('the client profile with Gemini CLI (in a loopback-only namespace)', () => {
  async function gemini(fault?: string) {
    const out = path.join(work, `gemini-${++n}`);
    const r = await cli(['demo', '--profile', 'client', '--clients', 'gemini-cli', ...(fault ? ['--fault', fault] : []), '--reporter', 'json', '--reporter', 'console', '--out', out], { timeoutMs: 120_000 });
    return { ...r, report: JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as RunReport };
  }

  it('the clean reference gateway passes; the client ran in a namespace with only loopback, its glob round trip reached the upstream on the stream route', async () => {
    expect(existsSync(GEMINI), `GWC_REQUIRE_GEMINI_CLI=1 but ${GEMINI} is absent`).toBe(true);
    const { code, report, stdout } = await gemini();
    expect(report.results.map((r) => r.outcome), stdout).toEqual(['pass', 'pass', 'pass']);
    expect(code).toBe(0);
    const ev = result(report, 'client.upstream.same-requests').evidence as { network: string; clients: Record<string, { requests: { straight: number } }> };
    expect(ev.network).toBe('loopback-only network namespace (unshare -n; interfaces: lo)');
    // The turn answered with the glob call, and the turn carrying its result.
    expect(Object.values(ev.clients)[0].requests.straight).toBe(2);
  }, 120_000);

  it('native-drop-alt-sse fails CLIENT-1 (the query is gone) and CLIENT-2: the CLI cannot read the JSON array it gets instead of events and ends in an error', async () => {
    const { code, report } = await gemini('native-drop-alt-sse');
    expect(code).toBe(1);
    const [one] = diffs(result(report, 'client.upstream.same-requests'), 'gemini-cli');
    expect(one.what).toBe('request 1 (POST /v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse) path and query');
    expect(diffs(result(report, 'client.answers.same'), 'gemini-cli')[0]).toMatchObject({ what: 'exit status', diff: 'exit 0 straight, 1 through the gateway' });
  }, 120_000);
});
