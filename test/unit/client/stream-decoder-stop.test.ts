// A compressed stream read by the client (src/client/sse.ts readDecoded): once the client has
// read all it reads of a stream (STREAM_MAX), the decoder stops at once. A brotli bomb (a few KiB
// inflating to 128 MiB of events) arrives in one chunk; before, all 128 MiB were inflated (and
// thrown away) before that chunk's write completed. zstd too, on either decoder (src/core/zstd.ts).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { STREAM_MAX } from '../../../src/client/collect.js';
import { GatewayClient } from '../../../src/client/gateway.js';
import { readStream } from '../../../src/client/sse.js';
import { passedTotal } from '../../../src/core/pressure.js';

const BOMB = 128 * 1024 * 1024;
const servers: http.Server[] = [];
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
});

/** A server answering every request with `body` (already compressed as `encoding`) as an event stream. */
async function serve(body: Buffer, encoding: string): Promise<GatewayClient> {
  const s = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': encoding });
    res.end(body);
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return new GatewayClient(`http://127.0.0.1:${(s.address() as AddressInfo).port}`, { token: 'tok-decoder-stop', timeoutMs: 60_000 });
}

const events = (bytes: number) => Buffer.from('data: {"type":"ping"}\n\n'.repeat(Math.ceil(bytes / 23))).subarray(0, bytes);

describe('a compressed stream past the client bound', () => {
  it.each([
    ['br', brotliCompressSync],
    ['gzip', gzipSync],
    // The same 128 MiB of events, compressed once with zlib's zstd (Node 24): Node 20 has no zstd compressor.
    ['zstd', () => readFileSync(new URL('../../fixtures/zstd/events-bomb.zst', import.meta.url))],
  ] as const)('%s: the decoder stops at the bound, not at the end of what one chunk inflates to', { timeout: 60_000 }, async (encoding, compress) => {
    const body = compress(events(BOMB));
    const gw = await serve(body, encoding);
    const before = passedTotal();
    const r = await readStream(gw, { path: '/v1/messages', body: '{}' });
    const decoded = passedTotal() - before;
    await gw.close();
    expect(r.error).toMatch(new RegExp(`went on past (${STREAM_MAX} bytes|\\d+ events)`));
    // What one paused decoder has in hand past the bound: far below the bomb.
    expect(decoded).toBeLessThan(STREAM_MAX + 4 * 1024 * 1024);
  });
});
