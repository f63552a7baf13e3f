// The client profile with real clients of the protocols beside messages, chat and native: Codex
// CLI on the Responses API (and Claude Code in its Bedrock and Vertex modes, the openai SDK on the
// Responses API and the Vertex SDK), each straight at
// the recording upstream and through the reference gateway, in a loopback-only network
// namespace (the command runs itself again inside `unshare -n`). The clean gateway passes; a
// fault fails the check of the requirement it breaks, with the difference as evidence. The
// comparison's own rules for these clients (values drawn per run by pattern, keys serialised in
// an order of chance) are tested on made-up runs.
//
// Codex CLI needs its binary under GWC_CODEX_DIR, Claude Code its own under GWC_CLAUDE_DIR
// (.ci/run installs both): their tests are skipped only when the binary is absent and
// GWC_REQUIRE_CODEX (GWC_REQUIRE_CLAUDE) is not 1.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../../helpers/cli.js';
import { claudeBinary } from '../../../src/real-clients/claude-code.js';
import { codexBinary, codexConfig } from '../../../src/real-clients/codex.js';
import { compareRequests, withSortedKeys } from '../../../src/real-clients/straight-vs-gateway.js';
import type { ClientRun, UpstreamRequest } from '../../../src/real-clients/types.js';
import type { CheckResult, RunReport } from '../../../src/report/shared/types.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'gwc-client-protocols-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
/** The CLI as a user runs it: as root it runs itself again inside `unshare -n`. */
async function client(clients: string, fault?: string) {
  const out = path.join(work, `run-${++n}`);
  const r = await cli(['demo', '--profile', 'client', '--clients', clients, ...(fault ? ['--fault', fault] : []), '--reporter', 'json', '--out', out], { timeoutMs: 120_000 });
  return { ...r, report: JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as RunReport };
}

const result = (r: RunReport, id: string) => r.results.find((x) => x.id === id) as CheckResult;
type Diff = { what: string; straight: string; gateway: string; diff: string };
const diffs = (r: CheckResult) => Object.values((r.evidence as { clients: Record<string, { differences: Diff[] }> }).clients)[0]?.differences ?? [];
const outcomes = (r: RunReport) => r.results.map((x) => [x.id, x.outcome]);
const CLEAN = [
  ['client.upstream.same-requests', 'pass'],
  ['client.answers.same', 'pass'],
  ['client.timing.no-added-delay', 'pass'],
];

const CODEX = codexBinary();
const codexRequired = process.env.GWC_REQUIRE_CODEX === '1';
describe.skipIf(!existsSync(CODEX) && !codexRequired)('the client profile with Codex CLI on the Responses API (in a loopback-only namespace)', () => {
  it('the clean reference gateway passes; the client ran with only loopback and its turn (a tool call, then the text on its result) reached the upstream as two requests each way', async () => {
    expect(existsSync(CODEX), `GWC_REQUIRE_CODEX=1 but ${CODEX} is absent`).toBe(true);
    const { code, report, stdout } = await client('codex');
    expect(outcomes(report), JSON.stringify(report.results.map((r) => r.message))).toEqual(CLEAN);
    expect(code).toBe(0);
    expect(stdout).toContain('client codex 0.171.0: 2 requests straight, 2 through the gateway; exit 0 / 0');
    const ev = result(report, 'client.answers.same').evidence as { network: string };
    expect(ev.network).toBe('loopback-only network namespace (unshare -n; interfaces: lo)');
  }, 120_000);

  it("drop-credential fails CLIENT-1: the client's authorization header was removed by the gateway", async () => {
    const { code, report } = await client('codex', 'drop-credential');
    expect(code).toBe(1);
    const [d] = diffs(result(report, 'client.upstream.same-requests'));
    expect(d).toMatchObject({ what: 'request 1 (POST /v1/responses) header authorization', diff: 'removed by the gateway', gateway: '[]' });
    expect(JSON.parse(d.straight)).toEqual(['Bearer ***']);
    expect(result(report, 'client.answers.same').outcome).toBe('pass');
  }, 120_000);

  it("resp-drop-client-headers (RESP-HDR-1's fault) is caught through the real client too: its session and turn headers were removed by the gateway", async () => {
    const { code, report } = await client('codex', 'resp-drop-client-headers');
    expect(code).toBe(1);
    const removed = diffs(result(report, 'client.upstream.same-requests')).filter((d) => d.diff === 'removed by the gateway').map((d) => d.what);
    for (const h of ['session-id', 'thread-id', 'originator', 'x-client-request-id', 'x-codex-window-id', 'x-codex-turn-metadata', 'x-codex-beta-features']) expect(removed).toContain(`request 1 (POST /v1/responses) header ${h}`);
    expect(result(report, 'client.answers.same').outcome).toBe('pass');
  }, 120_000);
});

const CLAUDE = claudeBinary();
const claudeRequired = process.env.GWC_REQUIRE_CLAUDE === '1';
describe.skipIf(!existsSync(CLAUDE) && !claudeRequired)('the client profile with Claude Code in Vertex mode (in a loopback-only namespace)', () => {
  const VERTEX_PATH = '/v1/projects/gwc-project/locations/us-east5/publishers/anthropic/models/claude-opus-5-5:streamRawPredict';

  it('the clean reference gateway passes; its tool turn and the turn carrying the result reached the upstream both ways', async () => {
    expect(existsSync(CLAUDE), `GWC_REQUIRE_CLAUDE=1 but ${CLAUDE} is absent`).toBe(true);
    const { code, report, stdout } = await client('claude-code-vertex');
    expect(outcomes(report), JSON.stringify(report.results.map((r) => r.message))).toEqual(CLEAN);
    expect(code).toBe(0);
    expect(stdout).toContain('client claude-code-vertex 2.1.330: 2 requests straight, 2 through the gateway; exit 0 / 0');
  }, 120_000);

  it('buffer-stream fails CLIENT-2: the final streamed answer reached the client in one piece; what reached the upstream is the same', async () => {
    const { code, report } = await client('claude-code-vertex', 'buffer-stream');
    expect(code).toBe(1);
    const [d] = diffs(result(report, 'client.answers.same'));
    expect(d.what).toBe('step 3 "turn 2: the streamed answer, timed from the client\'s line before it" incremental delivery');
    expect(d.straight).toMatch(/^5 deltas over \d+ ms$/);
    expect(result(report, 'client.upstream.same-requests').outcome).toBe('pass');
  }, 120_000);

  it('drop-credential fails CLIENT-1: the bearer token the client sent on each turn was removed by the gateway', async () => {
    const { report } = await client('claude-code-vertex', 'drop-credential');
    const found = diffs(result(report, 'client.upstream.same-requests'));
    expect(found.map((d) => [d.what, d.diff])).toEqual([
      [`request 1 (POST ${VERTEX_PATH}) header authorization`, 'removed by the gateway'],
      [`request 2 (POST ${VERTEX_PATH}) header authorization`, 'removed by the gateway'],
    ]);
  }, 120_000);
});

describe.skipIf(!existsSync(CLAUDE) && !claudeRequired)('the client profile with Claude Code in Bedrock mode (in a loopback-only namespace)', () => {
  it('the clean reference gateway passes: the three one-token probes (JSON invokes, sent at once) and the two streamed turns reached the upstream both ways', async () => {
    expect(existsSync(CLAUDE), `GWC_REQUIRE_CLAUDE=1 but ${CLAUDE} is absent`).toBe(true);
    const { code, report, stdout } = await client('claude-code-bedrock');
    expect(outcomes(report), JSON.stringify(report.results.map((r) => r.message))).toEqual(CLEAN);
    expect(code).toBe(0);
    // Straight, ListInferenceProfiles reaches the upstream too (a 404 there); the reference gateway answers it itself.
    expect(stdout).toContain('client claude-code-bedrock 2.1.330: 6 requests straight, 5 through the gateway; exit 0 / 0');
  }, 120_000);

  it('drop-credential fails CLIENT-1: the Bedrock API key was removed from every turn and every probe', async () => {
    const { code, report } = await client('claude-code-bedrock', 'drop-credential');
    expect(code).toBe(1);
    const found = diffs(result(report, 'client.upstream.same-requests'));
    // The three probes go out at once, so their numbers follow their arrival: compared without them.
    expect(found.map((d) => d.what.replace(/^request \d+ /, '')).sort()).toEqual(
      [
        '(POST /model/us.anthropic.claude-opus-5-5/invoke-with-response-stream) header authorization',
        '(POST /model/us.anthropic.claude-opus-5-5/invoke-with-response-stream) header authorization',
        '(POST /model/us.anthropic.claude-sonnet-4-5-20250929-v1:0/invoke) header authorization',
        '(POST /model/us.anthropic.claude-opus-5-5/invoke) header authorization',
        '(POST /model/us.anthropic.claude-haiku-4-5-20251001-v1:0/invoke) header authorization',
      ].sort(),
    );
    expect(found.map((d) => Number(d.what.match(/^request (\d+) /)?.[1])).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(found.map((d) => d.diff))).toEqual(new Set(['removed by the gateway']));
  }, 120_000);
});

describe('the client profile with the openai SDK on the Responses API (JSON and streamed calls)', () => {
  it('the clean reference gateway passes: the JSON tool turn and the result sent back streamed and not streamed reached the upstream both ways', async () => {
    const { code, report, stdout } = await client('openai-responses');
    expect(outcomes(report), JSON.stringify(report.results.map((r) => r.message))).toEqual(CLEAN);
    expect(code).toBe(0);
    expect(stdout).toContain('client openai-responses 6.49.0: 3 requests straight, 3 through the gateway; exit 0 / 0');
  }, 120_000);

  it("resp-drop-function-items fails CLIENT-1: the function call and its output were taken out of the result turns' input", async () => {
    const { code, report } = await client('openai-responses', 'resp-drop-function-items');
    expect(code).toBe(1);
    const found = diffs(result(report, 'client.upstream.same-requests'));
    expect(found.map((d) => d.what)).toEqual(['request 2 (POST /v1/responses) body', 'request 3 (POST /v1/responses) body']);
    // The bodies part where the user's message ends: straight another input item follows (the function call), through the gateway it does not.
    const [, straight, gateway] = /^at byte \d+ of (\d+)\/(\d+): straight ".*\\"},\{\\"type\\":\\"function_call\\"/.exec(found[0].diff) ?? [];
    expect(Number(straight)).toBeGreaterThan(Number(gateway));
  }, 120_000);
});

describe('the client profile with @anthropic-ai/vertex-sdk on Vertex (streamRawPredict, rawPredict and count-tokens)', () => {
  const VERTEX_PATH = 'POST /v1/projects/gwc-project/locations/us-east5/publishers/anthropic/models/claude-opus-5-5';
  it('the clean reference gateway passes: two streamed turns, one JSON turn and the token count reached the upstream both ways', async () => {
    const { code, report, stdout } = await client('anthropic-vertex');
    expect(outcomes(report), JSON.stringify(report.results.map((r) => r.message))).toEqual(CLEAN);
    expect(code).toBe(0);
    expect(stdout).toContain('client anthropic-vertex 1.1.3: 4 requests straight, 4 through the gateway; exit 0 / 0');
  }, 120_000);

  it('vertex-add-model fails CLIENT-1: a model field was put into each turn\'s body (the count, which carries one, is left alone)', async () => {
    const { code, report } = await client('anthropic-vertex', 'vertex-add-model');
    expect(code).toBe(1);
    const found = diffs(result(report, 'client.upstream.same-requests'));
    expect(found.map((d) => d.what)).toEqual([`request 1 (${VERTEX_PATH}:streamRawPredict) body`, `request 2 (${VERTEX_PATH}:streamRawPredict) body`, `request 3 (${VERTEX_PATH}:rawPredict) body`]);
    // The bodies part at the first key: straight max_tokens, through the gateway the 26 bytes of "model":"claude-opus-5-5", first.
    const [, straight, gateway] = /^at byte 3 of (\d+)\/(\d+): /.exec(found[0].diff) ?? [];
    expect(Number(gateway) - Number(straight)).toBe('"model":"claude-opus-5-5",'.length);
    expect(found[0].diff).toContain('gateway "{\\"model\\":\\"claude-opus-5-5\\",');
  }, 120_000);
});

describe('CLIENT-1 pairing: endpoints the upstream does not serve, requests sent at once', () => {
  const req = (seq: number, url: string, status = 200): UpstreamRequest => ({ seq, method: 'POST', url, headers: [], body: '', receivedAt: 0, status, ended: 'answered', durationMs: 1 });
  const run = (requests: UpstreamRequest[], unorderedRequests?: string) => ({ volatile: {}, requests, ...(unorderedRequests ? { unorderedRequests } : {}) }) as unknown as ClientRun;
  const bases = { straight: 'http://127.0.0.1:1', gateway: 'http://127.0.0.1:2' };

  it('a request the upstream answered 404 straight is not compared, forwarded or not; one it served and the gateway did not forward is missing', () => {
    const straight = run([req(1, '/inference-profiles', 404), req(2, '/model/m/invoke-with-response-stream')]);
    expect(compareRequests(straight, run([req(1, '/model/m/invoke-with-response-stream')]), bases)).toEqual([]);
    expect(compareRequests(straight, run([req(1, '/inference-profiles', 404), req(2, '/model/m/invoke-with-response-stream')]), bases)).toEqual([]);
    expect(compareRequests(straight, run([req(1, '/inference-profiles', 404)]), bases).map((d) => d.diff)).toEqual(['missing through the gateway']);
  });

  it('requests the client sends at once pair whatever their order; without the pattern, or for other requests, order still counts', () => {
    const probes = (order: string[]) => order.map((m, i) => req(i + 1, `/model/${m}/invoke`));
    const straight = probes(['a', 'b', 'c']);
    const gateway = probes(['c', 'a', 'b']);
    expect(compareRequests(run(straight, '^/model/[^/]+/invoke$'), run(gateway, '^/model/[^/]+/invoke$'), bases)).toEqual([]);
    expect(compareRequests(run(straight), run(gateway), bases).map((d) => d.diff)).toEqual(['added through the gateway', 'missing through the gateway']);
    expect(compareRequests(run(straight, '^/model/[^/]+/invoke$'), run(probes(['a', 'b']), '^/model/[^/]+/invoke$'), bases).map((d) => [d.what, d.diff])).toEqual([['request 3 (POST /model/c/invoke)', 'missing through the gateway']]);
  });
});

describe("Codex CLI's run: its config and what the comparison leaves to chance", () => {
  it('its config points the provider at the base URL with wire_api "responses", the key variable and the targeting headers, every feature that reaches other hosts off', () => {
    const t = codexConfig({ base: 'http://127.0.0.1:9/gw', headers: [['x-route', 'r1']] });
    expect(t).toContain('base_url = "http://127.0.0.1:9/gw/v1"');
    expect(t).toContain('wire_api = "responses"');
    expect(t).toContain('env_key = "GWC_CODEX_KEY"');
    expect(t).toContain('http_headers = { "x-route" = "r1" }');
    expect(t).toMatch(/\[features\]\nplugins = false\nremote_plugin = false\nplugin_sharing = false\napps = false\n/);
    expect(t).toMatch(/\[analytics\]\nenabled = false/);
    expect(t).not.toContain('websocket');
  });

  it("codexConfig with its WebSocket transport asked for: supports_websockets (and the connect bound when given) in the provider's own table", () => {
    const t = codexConfig({ base: 'http://127.0.0.1:9', headers: [] }, { connectTimeoutMs: 2500 });
    expect(t).toMatch(/\[model_providers\.gwc\]\n(?:[^[\n][^\n]*\n)*supports_websockets = true\nwebsocket_connect_timeout_ms = 2500\n/);
    expect(codexConfig({ base: 'http://127.0.0.1:9', headers: [] }, {})).not.toContain('websocket_connect_timeout_ms');
  });

  const req = (body: string, headers: Array<[string, string]> = []): UpstreamRequest => ({ seq: 1, method: 'POST', url: '/v1/responses', headers, body: Buffer.from(body).toString('base64'), receivedAt: 0, status: 200, ended: 'answered', durationMs: 1 });
  const run = (body: string, extra: Partial<ClientRun> = {}) => ({ volatile: {}, requests: [req(body)], ...extra }) as unknown as ClientRun;
  const bases = { straight: 'http://127.0.0.1:1', gateway: 'http://127.0.0.1:2' };

  it('the keys of a declared unordered object are sorted on both sides; any other key order, and a body not as JSON writes it, still differ', () => {
    const codexRun = (body: string) => run(body, { unorderedKeys: ['client_metadata'] });
    expect(compareRequests(codexRun('{"a":1,"client_metadata":{"x":"1","b":"2"}}'), codexRun('{"a":1,"client_metadata":{"b":"2","x":"1"}}'), bases)).toEqual([]);
    expect(compareRequests(codexRun('{"a":1,"z":{"x":1,"b":2}}'), codexRun('{"a":1,"z":{"b":2,"x":1}}'), bases).map((d) => d.what)).toEqual(['request 1 (POST /v1/responses) body']);
    expect(compareRequests(codexRun('{"a":1,"client_metadata":{"x":"1","b":"2"}}'), codexRun('{"a": 1,"client_metadata":{"b":"2","x":"1"}}'), bases)).toHaveLength(1);
    expect(withSortedKeys('{"client_metadata":{"x":"1","b":"2"}}', undefined)).toBe('{"client_metadata":{"x":"1","b":"2"}}');
  });

  it('values matching a volatile pattern are numbered by first appearance: the same ids in the same places pass, a changed place differs', () => {
    const patterns = { MESSAGE_ID: 'msg_[0-9a-f]{4}' };
    const a = run('{"input":[{"id":"msg_aaaa"},{"id":"msg_bbbb"},{"ref":"msg_aaaa"}]}', { volatilePatterns: patterns });
    const b = run('{"input":[{"id":"msg_cccc"},{"id":"msg_dddd"},{"ref":"msg_cccc"}]}', { volatilePatterns: patterns });
    const swapped = run('{"input":[{"id":"msg_cccc"},{"id":"msg_dddd"},{"ref":"msg_dddd"}]}', { volatilePatterns: patterns });
    expect(compareRequests(a, b, bases)).toEqual([]);
    const [d] = compareRequests(a, swapped, bases);
    expect(d.diff).toContain('<MESSAGE_ID_1>');
    expect(d.gateway).toContain('"ref":"<MESSAGE_ID_2>"');
  });
});
