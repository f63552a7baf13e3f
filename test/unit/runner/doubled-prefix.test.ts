// The readiness gate's diagnosis of a target aimed at the protocol's own first segment
// (src/runner/ready.ts refuseDoubledPrefix): `--target http://host:port/v1` sends
// /v1/v1/messages, and a gateway that forwards the path as it came hands the doubled prefix to
// the upstream. Refused in one line naming the flag to change; a prefix the gateway strips, or
// one that doubles nothing, is left alone.
import { describe, expect, it } from 'vitest';
import { GatewayClient } from '../../../src/client/gateway.js';
import { emptyTarget } from '../../../src/config/targeting.js';
import { refuseDoubledPrefix } from '../../../src/runner/ready.js';
import { HarnessError } from '../../../src/core/errors.js';
import { PROTOCOLS } from '../../../src/core/protocols.js';
import { probeRequest } from '../../../src/client/forwarded.js';

const client = (target: string, basePath = '') =>
  new GatewayClient(target, { token: '', timeoutMs: 1000, targeting: Object.fromEntries(PROTOCOLS.map((p) => [p, { ...emptyTarget(), ...(p === 'messages' ? { basePath } : {}) }])) as never });

function refusal(gateway: GatewayClient, protocol: 'messages' | 'native', upstreamUrl: string): string | null {
  try {
    refuseDoubledPrefix(gateway, protocol, upstreamUrl);
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(HarnessError);
    expect((e as HarnessError).code).toBe('BAD_TARGET');
    return (e as Error).message;
  }
}

describe('refuseDoubledPrefix', () => {
  it('refuses --target .../v1 when the upstream received /v1/v1/messages, naming the --target to use', () => {
    const m = refusal(client('http://127.0.0.1:8080/v1'), 'messages', '/v1/v1/messages');
    expect(m).toBe("the messages canary was sent to /v1/v1/messages and the upstream received POST /v1/v1/messages: the harness adds the protocol's path (/v1/messages) itself, so drop /v1 from --target (--target http://127.0.0.1:8080/)");
  });
  it('names --base-path when the doubled segment came from it', () => {
    expect(refusal(client('http://127.0.0.1:8080', '/v1'), 'messages', '/v1/v1/messages')).toMatch(/drop \/v1 from --base-path messages=\.\.\.$/);
  });
  it('refuses the native protocol doubled the same way (/v1beta/v1beta/...)', () => {
    expect(refusal(client('http://127.0.0.1:8080/v1beta'), 'native', `/v1beta${probeRequest('native').path}`)).toMatch(/drop \/v1beta from --target/);
  });
  it('leaves alone a prefix the gateway strips, one it keeps that doubles nothing, and no prefix', () => {
    expect(refusal(client('http://127.0.0.1:8080/v1'), 'messages', '/v1/messages')).toBeNull();
    expect(refusal(client('http://127.0.0.1:8080/anthropic'), 'messages', '/anthropic/v1/messages')).toBeNull();
    expect(refusal(client('http://127.0.0.1:8080'), 'messages', '/v1/messages')).toBeNull();
  });
});
