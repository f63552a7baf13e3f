// Failure messages say what was sent, what arrived and what differs, and claim a consequence
// only where it follows: each on the reference fault (or a test gateway's fault) that triggers it.
import { describe, expect, it } from 'vitest';
import { RecordingUpstream } from '../../mocks/upstream/server.js';
import { DEMO_UPSTREAM_TIMEOUT_MS, ReferenceGateway } from '../../reference/gateway.js';
import { faultByName, type Fault } from '../../reference/faults/index.js';
import { runSuite } from '../../src/runner/run.js';
import { resolveConfig } from '../../src/config/config.js';
import { CHECKS } from '../../suites/index.js';

/** The message of one check, run alone against the reference gateway with `fault`. */
async function messageOf(fault: Fault, id: string): Promise<string> {
  const upstream = new RecordingUpstream();
  await upstream.start('127.0.0.1', 0);
  const gw = new ReferenceGateway({ upstream: upstream.url, fault, upstreamTimeoutMs: DEMO_UPSTREAM_TIMEOUT_MS });
  try {
    const target = await gw.start('127.0.0.1', 0);
    const report = await runSuite(CHECKS, resolveConfig({ seed: '1', reporter: ['json'], only: [id] }, {}, {}), target, upstream, () => {});
    const r = report.results.find((x) => x.id === id)!;
    expect(r.outcome, r.message).toBe('fail');
    return r.message;
  } finally {
    await gw.stop();
    await upstream.stop();
  }
}

const named = (name: string) => faultByName(name)!;

describe('failure messages', () => {
  it('the path check says what was sent and what arrived: a changed path', async () => {
    expect(await messageOf(named('double-v1-path'), 'messages.path.preserved')).toBe('sent POST /v1/messages, the upstream received POST /v1/v1/messages: the path changed from /v1/messages to /v1/v1/messages');
  });

  it('the path check names a dropped ?beta=true as the finding (it read like a pass)', async () => {
    const dropQuery: Fault = { name: 'drop-messages-query', breaks: ['MSG-PATH-1'], description: 'forwards the messages path without its query', request: (r) => void (r.path = r.path.replace(/^(\/v1\/messages)\?.*$/, '$1')) };
    expect(await messageOf(dropQuery, 'messages.path.preserved')).toBe('sent POST /v1/messages?beta=true, the upstream received POST /v1/messages: the query ?beta=true was dropped');
  });

  it('the beta check claims the real API\'s 400 only when the header was removed', async () => {
    const removed = await messageOf(named('drop-anthropic-beta'), 'messages.headers.beta-with-body');
    expect(removed).toMatch(/^forwarded without their partner: the anthropic-beta values context-management-2025-06-27, effort-2025-11-24, advanced-tool-use-2025-11-20 removed while context_management, output_config, tools\[\]\.defer_loading arrived in the body: the real API answers 400 "Extra inputs are not permitted"$/);
    const dropped = await messageOf(named('drop-unknown-fields'), 'messages.headers.beta-with-body');
    expect(dropped).toMatch(/^forwarded without their partner: the body fields? .*context_management.* dropped while anthropic-beta kept .*context-management-2025-06-27.*: the feature is silently lost$/);
    expect(dropped).not.toMatch(/400/);
  });

  it('the version check says what was sent', async () => {
    expect(await messageOf(named('force-anthropic-version'), 'messages.headers.version')).toBe('sent anthropic-version: 2023-06-01, the upstream received anthropic-version: 2023-01-01');
  });

  it('a JSON answer without an error object is "no JSON error object"', async () => {
    const plainJson: Fault = { name: 'json-without-error', breaks: ['ERR-DOWN-1'], description: 'answers a JSON body with no error object when the upstream is down', upstreamDown: (status) => ({ status, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"message":"upstream down"}') }) };
    expect(await messageOf(plainJson, 'errors.upstream.unreachable')).toMatch(/^with the upstream down, the client got no JSON error object after \d+ ms: 50\d JSON \(content-type application\/json\): \{"message":"upstream down"\}$/);
  });
});
