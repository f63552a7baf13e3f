// The client profile's socket clients: the openai SDK's Realtime WebSocket client
// (`openai-realtime`) and @google/genai's Live client (`genai-live`), each straight at the
// recording upstream and through a gateway, compared as every client is (CLIENT-1 to CLIENT-3).
// The clean reference gateway passes; a gateway that strips the upgrade (the reference fault, and
// nginx's plain.conf, which has no upgrade lines) fails CLIENT-1 (the upstream got no socket: a
// plain GET without its messages) and CLIENT-2 (each SDK raised an error straight it did not);
// one that reorders the upstream's messages fails CLIENT-2 for both; nginx with the upgrade
// configuration (websockets.conf) passes. Caddy and HAProxy are in docs/client-profile.md; the
// comparison's rule for an upgrade's Accept-Encoding (Caddy 2.6 adds one) is tested on made-up runs.
// The SDKs run in this process; the fault that batches messages (ws-burst) is left out: whether
// its 500 ms bursts split an answer sent over 480 ms follows the machine's load.
//
// Needs nginx for its part; a missing nginx skips it unless GWC_REQUIRE_NGINX is 1 (CI).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT } from '../../helpers/cli.js';
import { cleanupAfterAll } from '../../helpers/cleanup.js';
import { compareRequests } from '../../../src/real-clients/straight-vs-gateway.js';
import type { ClientRun, UpstreamRequest } from '../../../src/real-clients/types.js';
import type { CheckResult, RunReport } from '../../../src/report/shared/types.js';

const { tempDir } = cleanupAfterAll();
const CLIENTS = 'openai-realtime,genai-live';
const TEST_MS = 120_000;

async function profile(args: string[]) {
  const out = tempDir('gwc-client-sockets-');
  const r = await cli([...args, '--profile', 'client', '--clients', CLIENTS, '--reporter', 'json', '--out', out], { timeoutMs: TEST_MS - 10_000 });
  const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as RunReport;
  const by = Object.fromEntries(report.results.map((x) => [x.id, x])) as Record<string, CheckResult>;
  return { code: r.code, stdout: r.stdout, by, detail: `exit ${r.code}\n${r.stdout}\n${r.stderr}\n${report.results.map((x) => `${x.id}: ${x.outcome}: ${x.message}`).join('\n')}` };
}

type Diff = { what: string; straight: string; gateway: string; diff: string };
/** Each client's differences in a check's evidence, by the client's name without its version. */
const diffs = (r: CheckResult) => Object.fromEntries(Object.entries((r.evidence as { clients: Record<string, { differences: Diff[] }> }).clients).map(([k, v]) => [k.split(' ')[0], v.differences]));
const outcomes = (by: Record<string, CheckResult>) => Object.values(by).map((x) => [x.id, x.outcome]);
const LIVE = '//ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent';

/** Through a gateway that carries no upgrade: the upstream got a plain GET (no messages), each SDK's first step an error. */
function noSocket(by: Record<string, CheckResult>, detail: string) {
  expect(by['client.upstream.same-requests'].outcome, detail).toBe('fail');
  const sent = diffs(by['client.upstream.same-requests']);
  expect(sent['openai-realtime'].map((d) => d.what)).toContain('request 1 (GET /v1/realtime?model=gpt-realtime) body');
  // The masker takes the key's value up to a space, the label's closing parenthesis with it.
  expect(sent['genai-live'].map((d) => d.what)).toContain(`request 1 (GET ${LIVE}?key=*** body`);
  for (const ds of Object.values(sent)) expect(ds.find((d) => d.what.endsWith(' body'))!.gateway).toBe('');
  expect(by['client.answers.same'].outcome, detail).toBe('fail');
  const got = diffs(by['client.answers.same']);
  expect(got['openai-realtime'][0]).toMatchObject({ what: 'step 1 "realtime socket opened (session.created)" error', straight: 'null' });
  expect(got['genai-live'][0]).toMatchObject({ what: 'step 1 "live.connect (setupComplete)" error', straight: 'null' });
  expect(got['genai-live'][0].gateway).toMatch(/^Error: live\.connect: the socket ended first \(error: Unexpected server response: \d{3}\)$/);
}

describe('the client profile with the Realtime and Live SDK clients (WebSocket)', () => {
  it('the clean reference gateway passes: each socket, its upgrade and every message both ways, as straight', async () => {
    const { code, by, stdout, detail } = await profile(['demo']);
    expect(outcomes(by), detail).toEqual([
      ['client.upstream.same-requests', 'pass'],
      ['client.answers.same', 'pass'],
      ['client.timing.no-added-delay', 'pass'],
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain('client openai-realtime 6.49.0: 1 request straight, 1 through the gateway; exit 0 / 0');
    expect(stdout).toContain('client genai-live 1.52.0: 1 request straight, 1 through the gateway; exit 0 / 0');
  }, TEST_MS);

  it('ws-strip-upgrade fails CLIENT-1 and CLIENT-2: no socket reached the upstream, and each SDK failed to open one', async () => {
    const { code, by, detail } = await profile(['demo', '--fault', 'ws-strip-upgrade']);
    expect(code).toBe(1);
    noSocket(by, detail);
  }, TEST_MS);

  it("ws-reorder fails CLIENT-2 for both: the answer's messages came in another order", async () => {
    const { code, by, detail } = await profile(['demo', '--fault', 'ws-reorder']);
    expect(code).toBe(1);
    expect(by['client.answers.same'].outcome, detail).toBe('fail');
    const got = diffs(by['client.answers.same']);
    expect(Object.keys(got).filter((k) => got[k].length).sort()).toEqual(['genai-live', 'openai-realtime']);
  }, TEST_MS);
});

const nginx = { available: spawnSync('nginx', ['-v'], { stdio: 'ignore' }).status === 0, required: process.env.GWC_REQUIRE_NGINX === '1' };
const nginxCmd = (conf: string) => `sh ${path.join(ROOT, 'scripts', 'nginx-gateway.sh')} ${path.join(ROOT, 'examples', 'nginx', conf)} {listen_port} {upstream_port} {workdir}`;

describe.skipIf(!nginx.available && !nginx.required)('the Realtime and Live SDK clients through nginx', () => {
  it('plain.conf (no upgrade lines) fails CLIENT-1 and CLIENT-2 as a gateway that strips the upgrade does', async () => {
    expect(nginx.available, 'GWC_REQUIRE_NGINX=1 but nginx is not on PATH').toBe(true);
    const { code, by, detail } = await profile(['run', '--gateway-cmd', nginxCmd('plain.conf')]);
    expect(code).toBe(1);
    noSocket(by, detail);
  }, TEST_MS);

  it('websockets.conf passes: the sockets and their messages as straight', async () => {
    const { code, by, detail } = await profile(['run', '--gateway-cmd', nginxCmd('websockets.conf')]);
    expect(outcomes(by), detail).toEqual([
      ['client.upstream.same-requests', 'pass'],
      ['client.answers.same', 'pass'],
      ['client.timing.no-added-delay', 'pass'],
    ]);
    expect(code).toBe(0);
  }, TEST_MS);
});

describe("CLIENT-1 on a socket's upgrade", () => {
  const req = (status: number, headers: Array<[string, string]>): UpstreamRequest => ({ seq: 1, method: 'GET', url: '/v1/realtime?model=m', headers, body: '', receivedAt: 0, status, ended: 'answered', durationMs: 1 });
  const run = (r: UpstreamRequest) => ({ volatile: {}, requests: [r] }) as unknown as ClientRun;
  const bases = { straight: 'http://127.0.0.1:1', gateway: 'http://127.0.0.1:2' };

  it('an Accept-Encoding a proxy adds to an upgrade (answered 101, no body) is no difference; on any other request it is one', () => {
    expect(compareRequests(run(req(101, [])), run(req(101, [['Accept-Encoding', 'gzip']])), bases)).toEqual([]);
    expect(compareRequests(run(req(200, [])), run(req(200, [['Accept-Encoding', 'gzip']])), bases).map((d) => d.diff)).toEqual(['added by the gateway']);
    // Other headers of an upgrade still count.
    expect(compareRequests(run(req(101, [['openai-beta', 'x']])), run(req(101, [])), bases).map((d) => d.diff)).toEqual(['removed by the gateway']);
  });
});
