// The run-level bound against answers that defeat every check alike (src/runner/unbounded.ts):
// once three different checks met the same kind of answer (one that never ends, one that is not
// HTTP), the runner starts no more; they are not run, naming the kind and the checks, and the run
// exits 1. Checks here meet the answer by reporting it through the client's hook, as the client
// does (src/client/gateway.ts), one at a time against a target that accepts connections.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineCheck, fail, pass, type CheckDef, type RunSettings } from '../../../src/check/check.js';
import { GatewayTransportError, type GatewayClient } from '../../../src/client/gateway.js';
import type { Upstream } from '../../../src/upstream/upstream.js';
import { runChecks, type RunEnv } from '../../../src/runner/runner.js';
import { UnboundedBreaker, UNBOUNDED_AFTER } from '../../../src/runner/unbounded.js';
import { exitCodeOf, isCutShort, UNBOUNDED_NOT_RUN } from '../../../src/report/shared/policy.js';

const settings: RunSettings = { seed: 1, numRuns: 1, timeoutMs: 1000, modelRoutes: {}, sse: { maxLagMs: 200, burstWindowMs: 20, latP50Ms: 50 }, idle: { maxS: 120, minS: 65 }, hangWaitMs: 1000 };
let server: net.Server;
let env: RunEnv;
beforeAll(async () => {
  server = net.createServer((s) => s.destroy());
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const gateway = { base: new URL(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`) } as unknown as GatewayClient;
  env = { gateway, upstream: { release: () => undefined } as unknown as Upstream, settings, declared: new Set(['messages']) };
});
afterAll(() => void server.close());

/** A check that meets an answer of transport error `code` (`times` requests of it), then fails; or passes with no code. */
const meets = (id: string, code?: string, times = 1): CheckDef =>
  defineCheck({
    id, title: id, requirements: ['X-1'], level: 'MUST', area: 'test', profile: 'default', protocol: 'messages', requirement: id, fix: id,
    run: async (ctx) => {
      if (!code) return pass(id);
      for (let k = 0; k < times; k++) ctx.gateway.onConnectionFailed?.(new GatewayTransportError(`POST /v1/messages: ${code}`, code));
      return fail(`${id}: ${code}`);
    },
  });

describe('the bound on answers that defeat every check', () => {
  it('after three checks met an answer that never ends, the rest are not run, the same whichever ran first', async () => {
    const ids = Array.from({ length: 8 }, (_, k) => `c${k}`);
    for (const order of [ids, [...ids].reverse()]) {
      const results = await runChecks(order.map((id) => meets(id, 'ANSWER_TOO_LARGE', 2)), env, { concurrency: 1 });
      const ran = results.filter((r) => r.outcome === 'fail');
      expect(ran).toHaveLength(UNBOUNDED_AFTER);
      const rest = results.filter((r) => r.outcome === 'skip');
      expect(rest).toHaveLength(8 - UNBOUNDED_AFTER);
      for (const r of rest) expect(r.message).toBe(`${UNBOUNDED_NOT_RUN} never end (each read to the client's bound, 16 MiB): 3 checks met such an answer (${ran.map((x) => x.id).sort().join(', ')}); the run started no more checks, each of which would have met it again`);
      expect(results.every((r) => r.outcome !== 'pass')).toBe(true);
      expect(exitCodeOf(results, false)).toBe(1);
      expect(rest.every(isCutShort)).toBe(true);
    }
  });

  it('counts checks, not requests, and each kind apart; other failures and passes never count', async () => {
    const results = await runChecks([meets('a', 'ANSWER_TOO_LARGE', 5), meets('b', 'ANSWER_TOO_LARGE'), meets('c', 'HPE_INVALID_CONSTANT'), meets('d', 'HTTPParserError'), meets('e', 'ECONNRESET'), meets('h', 'STREAM_TOO_LONG'), meets('i', 'STREAM_TOO_LONG'), meets('f'), meets('g')], env, { concurrency: 1 });
    expect(results.map((r) => r.outcome)).toEqual(['fail', 'fail', 'fail', 'fail', 'fail', 'fail', 'fail', 'pass', 'pass']);
  });

  it('counts every parse error as one kind: random bytes give another code each time', () => {
    const b = new UnboundedBreaker();
    b.note('z', 'HPE_INVALID_CONSTANT');
    b.note('x', 'HTTPParserError');
    expect(b.tripped).toBeNull();
    b.note('y', 'HPE_INVALID_CHUNK_SIZE');
    expect(b.tripped).toEqual({ kind: 'are not valid HTTP (the client could not parse them)', checks: ['x', 'y', 'z'] });
  });
});
