// Codex CLI compacting remotely in the client profile (`--clients codex-compact`): its provider
// named Azure and an auto-compaction limit under the session's first answer's tokens, so Codex
// 0.171.0 compacts mid-turn in its v2 form (a streamed POST /v1/responses whose input ends in a
// `compaction_trigger` item), straight at the recording upstream and through the reference
// gateway, in a loopback-only network namespace. The clean gateway passes CLIENT-1..3 with the
// compaction turn among the requests on both sides; resp-drop-compaction-item (RESP-COMPACT-2's
// fault, issue 45) loses the compaction item, Codex's turn fails and the follow-up never reaches
// the upstream: CLIENT-1 and CLIENT-2 fail. Codex does not compress its requests with a key of the
// API (docs/client-profile.md says why): the comparison of encoded bodies is tested on made-up runs.
//
// Needs Codex under GWC_CODEX_DIR (.ci/run installs it): the real-client tests are skipped only
// when the binary is absent and GWC_REQUIRE_CODEX is not 1.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../../helpers/cli.js';
import { codexBinary, codexConfig } from '../../../src/real-clients/codex.js';
import { compareRequests, requestLines } from '../../../src/real-clients/straight-vs-gateway.js';
import { zstdFrame } from '../../../src/core/zstd.js';
import type { ClientRun, UpstreamRequest } from '../../../src/real-clients/types.js';
import type { CheckResult, RunReport } from '../../../src/report/shared/types.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'gwc-codex-compact-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
/** The CLI as a user runs it: as root it runs itself again inside `unshare -n`. */
async function client(fault?: string) {
  const out = path.join(work, `run-${++n}`);
  const r = await cli(['demo', '--profile', 'client', '--clients', 'codex-compact', ...(fault ? ['--fault', fault] : []), '--reporter', 'json', '--out', out], { timeoutMs: 120_000 });
  return { ...r, report: JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as RunReport };
}

type Diff = { what: string; straight: string; gateway: string; diff: string };
type Evidence = { clients: Record<string, { differences: Diff[]; sent?: { straight: string[]; gateway: string[] } }> };
const result = (r: RunReport, id: string) => r.results.find((x) => x.id === id) as CheckResult;
const only = (r: CheckResult) => Object.values((r.evidence as Evidence).clients)[0];

/** The three requests of the compacting session: the turn, its compaction (the trigger last), the follow-up on the compacted history. */
const COMPACTING = [
  'POST /v1/responses (input: message x4)',
  'POST /v1/responses (input: message x4, function_call, function_call_output, compaction_trigger)',
  'POST /v1/responses (input: message x4, compaction)',
];

const CODEX = codexBinary();
describe.skipIf(!existsSync(CODEX) && process.env.GWC_REQUIRE_CODEX !== '1')('Codex CLI compacting remotely, in the client profile (in a loopback-only namespace)', () => {
  it('the clean reference gateway passes CLIENT-1..3; the upstream got the turn, its compaction_trigger turn and the compacted follow-up, the same three each way', async () => {
    expect(existsSync(CODEX), `GWC_REQUIRE_CODEX=1 but ${CODEX} is absent`).toBe(true);
    const { code, report, stdout } = await client();
    expect(report.results.map((r) => [r.id, r.outcome]), JSON.stringify(report.results.map((r) => r.message))).toEqual([
      ['client.upstream.same-requests', 'pass'],
      ['client.answers.same', 'pass'],
      ['client.timing.no-added-delay', 'pass'],
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain('client codex-compact 0.171.0: 3 requests straight, 3 through the gateway; exit 0 / 0');
    expect(only(result(report, 'client.upstream.same-requests')).sent).toEqual({ straight: COMPACTING, gateway: COMPACTING });
  }, 120_000);

  it('resp-drop-compaction-item fails CLIENT-1 and CLIENT-2: the compaction item lost, Codex fails its turn and never sends the follow-up', async () => {
    const { code, report, stdout } = await client('resp-drop-compaction-item');
    expect(code).toBe(1);
    expect(stdout).toContain('client codex-compact 0.171.0: 3 requests straight, 2 through the gateway; exit 0 / 1');
    const sent = only(result(report, 'client.upstream.same-requests'));
    expect(sent.sent).toEqual({ straight: COMPACTING, gateway: COMPACTING.slice(0, 2) });
    expect(sent.differences).toEqual([{ what: 'request 3 (POST /v1/responses)', straight: 'POST /v1/responses', gateway: '(none)', diff: 'missing through the gateway' }]);
    expect(result(report, 'client.upstream.same-requests').outcome).toBe('fail');
    const answers = result(report, 'client.answers.same');
    expect(answers.outcome).toBe('fail');
    expect(only(answers).differences[0]).toMatchObject({ what: 'exit status', diff: 'exit 0 straight, 1 through the gateway' });
  }, 120_000);
});

describe('the compaction config, and encoded request bodies in the comparison (made-up runs)', () => {
  it('codexConfig with compaction: the limit at the top level and the provider named Azure; without it, neither', () => {
    const t = codexConfig({ base: 'http://127.0.0.1:9', headers: [] }, undefined, { tokenLimit: 1000 });
    expect(t).toMatch(/^model_auto_compact_token_limit = 1000$/m);
    expect(t).toMatch(/\[model_providers\.gwc\]\nname = "Azure"\n/);
    const plain = codexConfig({ base: 'http://127.0.0.1:9', headers: [] });
    expect(plain).not.toContain('model_auto_compact_token_limit');
    expect(plain).toContain('name = "gw-conformance"');
  });

  const BODY = '{"model":"gpt-5.5","input":[{"type":"message"},{"type":"compaction_trigger"}]}';
  const req = (body: Buffer, enc?: string): UpstreamRequest => ({ seq: 1, method: 'POST', url: '/v1/responses', headers: enc ? [['content-encoding', enc]] : [], body: body.toString('base64'), receivedAt: 0, status: 200, ended: 'answered', durationMs: 1 });
  const run = (q: UpstreamRequest) => ({ volatile: {}, requests: [q] }) as unknown as ClientRun;
  const bases = { straight: 'http://127.0.0.1:1', gateway: 'http://127.0.0.1:2' };
  const zstd = (s: string) => zstdFrame(Buffer.from(s));

  it('a zstd body forwarded re-encoded (gzip) is the same body decoded: only its Content-Encoding differs', () => {
    const d = compareRequests(run(req(zstd(BODY), 'zstd')), run(req(gzipSync(BODY), 'gzip')), bases);
    expect(d.map((x) => [x.what, x.straight, x.gateway])).toEqual([['request 1 (POST /v1/responses) header content-encoding', '["zstd"]', '["gzip"]']]);
  });

  it('a zstd body forwarded decoded: the same body, the Content-Encoding removed by the gateway', () => {
    const d = compareRequests(run(req(zstd(BODY), 'zstd')), run(req(Buffer.from(BODY))), bases);
    expect(d.map((x) => [x.what, x.diff])).toEqual([['request 1 (POST /v1/responses) header content-encoding', 'removed by the gateway']]);
  });

  it('a zstd body that lost its tail through the gateway differs, compared decoded, at the first lost byte', () => {
    const cut = BODY.slice(0, 40);
    const [d] = compareRequests(run(req(zstd(BODY), 'zstd')), run(req(zstd(cut), 'zstd')), bases);
    expect(d.what).toBe('request 1 (POST /v1/responses) body (compared decoded from zstd)');
    expect(d.diff).toMatch(/^at byte 40 of 78\/40: /);
  });

  it("each request's line names its Content-Encoding and the input's item types, read decoded; a body that does not decode, the encoding only", () => {
    expect(requestLines(run(req(zstd(BODY), 'zstd')))).toEqual(['POST /v1/responses (content-encoding: zstd) (input: message, compaction_trigger)']);
    expect(requestLines(run(req(Buffer.from('not zstd'), 'zstd')))).toEqual(['POST /v1/responses (content-encoding: zstd)']);
    expect(requestLines(run(req(Buffer.from(BODY))))).toEqual(['POST /v1/responses (input: message, compaction_trigger)']);
  });
});
