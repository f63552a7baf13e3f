// The client profile's verdict over clients (suites/client/common.ts verdictOver): a client whose
// straight run sent the upstream no request (Claude Code, Codex or Gemini CLI under --no-token)
// is not judged, and a verdict over no judged client says it could not judge; a client that
// reached the upstream straight but not through the gateway is judged (that is the gateway's doing).
import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../../src/check/check.js';
import type { ClientPair } from '../../../src/real-clients/session.js';
import type { ClientRun, UpstreamRequest } from '../../../src/real-clients/types.js';
import { verdictOver } from '../../../suites/client/common.js';

const req = (seq: number): UpstreamRequest => ({ seq, method: 'POST', url: '/v1/messages', headers: [], body: '', receivedAt: seq, status: 200, ended: 'answered', durationMs: 1 }) as UpstreamRequest;
const run = (via: 'straight' | 'gateway', requests: number, stdout: string): ClientRun =>
  ({ client: 'claude-code', version: '2', via, steps: [], exit: { code: requests ? 0 : 1, timedOut: false }, stdout, stderr: '', files: {}, volatile: {}, requests: Array.from({ length: requests }, (_, i) => req(i)), notes: [] }) as ClientRun;
const pair = (client: string, straight: number, gateway: number): ClientPair => ({
  client,
  version: '1',
  straight: { ...run('straight', straight, 'msg_01Straight'), client },
  gateway: { ...run('gateway', gateway, 'msg_01Gateway'), client },
  bases: { straight: 'http://a', gateway: 'http://b' },
  targeting: [],
});
const ctx = (pairs: ClientPair[]) => ({ fixture: { pairs, network: 'namespace' }, log: () => {} }) as unknown as CheckContext;
/** A comparison that finds a difference wherever the two runs printed differently (the random message ids of two failed starts). */
const byOutput = (p: ClientPair) => ({ differences: p.straight.stdout === p.gateway.stdout ? [] : [{ what: 'output', straight: p.straight.stdout, gateway: p.gateway.stdout, diff: 'differs' }] });

describe('verdictOver', () => {
  it('says it could not judge when no client sent a request straight, instead of failing on two failed starts', () => {
    const v = verdictOver(ctx([pair('claude-code', 0, 0), pair('codex', 0, 0), pair('gemini-cli', 0, 0)]), 'the answers', byOutput);
    expect(v.ok).toBe(true);
    expect(v.skip).toBe(true);
    expect(v.message).toMatch(/^could not judge: claude-code sent the upstream no request straight \(exit 1; 0 through the gateway\): it did not run/);
    expect(v.message).toMatch(/codex .*; gemini-cli /);
  });
  it('judges the clients that ran and names those it did not judge', () => {
    const v = verdictOver(ctx([pair('claude-code', 3, 3), pair('codex', 0, 0)]), 'the answers', (p) => ({ differences: p.client === 'claude-code' ? [] : byOutput(p).differences }));
    expect(v.ok).toBe(true);
    expect(v.skip).toBeFalsy();
    expect(v.message).toMatch(/^claude-code: the answers through the gateway as straight \(not judged: codex sent the upstream no request straight/);
  });
  it('judges a client that reached the upstream straight and not through the gateway: the gateway stopped it', () => {
    const v = verdictOver(ctx([pair('claude-code', 3, 0)]), 'the answers', byOutput);
    expect(v.ok).toBe(false);
  });
});
