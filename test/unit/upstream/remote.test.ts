// A run attached to a running `gw-conformance mock` (src/runner/remote.ts): when the mock refuses
// the run, the caller shows the mock's own reason, not "ended the run without a report".
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { controlHandler, CONTROL_PREFIX, refuse, runRemote } from '../../../src/runner/remote.js';
import { resolveConfig } from '../../../src/config/config.js';
import type { Upstream } from '../../../src/upstream/upstream.js';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(handler: http.RequestListener): Promise<string> {
  const s = http.createServer(handler);
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

describe('the mock refusing a run', () => {
  it('a run request that is not JSON: 400 with one whole NDJSON error line', async () => {
    const base = await serve(controlHandler({ url: 'http://127.0.0.1:1' } as Upstream, [], () => {}));
    const res = await fetch(`${base}${CONTROL_PREFIX}run`, { method: 'POST', body: 'not json' });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text.endsWith('\n')).toBe(true);
    expect(JSON.parse(text)).toEqual({ type: 'error', code: 'BAD_FLAG', message: 'the run request is not JSON' });
  });

  it("the caller's error is the mock's reason (a busy mock)", async () => {
    const base = await serve((_req, res) => refuse(res, 409, 'PORT_IN_USE', 'the mock is already serving another run; wait for it to finish, or start another mock'));
    const cfg = resolveConfig({ reporter: ['json'] }, {}, {});
    await expect(runRemote(base, cfg, 'http://127.0.0.1:1', () => {})).rejects.toThrow('the mock is already serving another run; wait for it to finish, or start another mock');
  });
});
