// A run aimed at `--target http://host:port/v1` through a proxy that forwards every path as it
// came: the recording upstream receives /v1/v1/messages. The readiness gate refuses the run in one
// line that says to drop /v1 (exit 2), before any check blames the gateway for it.
import http from 'node:http';
import type net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/in-process.js';

const servers: http.Server[] = [];
afterAll(() => servers.forEach((s) => (s.closeAllConnections(), s.close())));

/** A proxy that sends every request, path as it came, to the upstream on `port`. */
async function passThrough(port: number): Promise<number> {
  const s = http.createServer((req, res) => {
    const up = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers }, (ur) => {
      res.writeHead(ur.statusCode ?? 502, ur.headers);
      ur.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as net.AddressInfo).port;
}

describe('--target with the protocol path\'s first segment', () => {
  it('is refused at readiness in one line that says to drop /v1 (exit 2), no check run', async () => {
    const upstream = await freePort();
    const port = await passThrough(upstream);
    const r = await cliInProcess(['run', '--target', `http://127.0.0.1:${port}/v1`, '--upstream-listen', `127.0.0.1:${upstream}`, '--protocols', 'messages', '--ready-timeout-s', '20'], { timeoutMs: 60_000 });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      `gw-conformance: error GWC-BAD-TARGET: the messages canary was sent to /v1/v1/messages and the upstream received POST /v1/v1/messages: the harness adds the protocol's path (/v1/messages) itself, so drop /v1 from --target (--target http://127.0.0.1:${port}/)`,
    ]);
    expect(r.stdout).not.toMatch(/checks?.*(pass|fail)/);
  }, 90_000);
});
