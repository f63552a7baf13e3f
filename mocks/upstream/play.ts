// Plays a scenario (scenario.ts) on one response. Timers here schedule the scripted
// timeline of a streamed reply (SSE text, or AWS event-stream messages); they are the scenario, not synchronisation.
import type http from 'node:http';
import { constants } from 'node:http2';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { acceptsGzip, acceptsZstd, headerValues, type RecordedRequest } from '../../src/upstream/record.js';
import { zstdFrame } from '../../src/core/zstd.js';
import type { Reply } from '../../src/upstream/scenario.js';
import { bodyHasField, tryParse } from '../../src/core/json.js';
import { encodeFrame } from '../../src/core/framing.js';

/** Headers HTTP/2 forbids (connection-specific): a scenario's HTTP/1.1 framing headers are left out over h2. */
const NOT_IN_H2 = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);
const overH2 = (res: http.ServerResponse) => res.req?.httpVersionMajor === 2;

function writeHead(res: http.ServerResponse, status: number, headers: Array<[string, string]>) {
  const flat: string[] = [];
  const h2 = overH2(res);
  for (const [k, v] of headers) if (!h2 || !NOT_IN_H2.has(k.toLowerCase())) flat.push(k, v);
  res.writeHead(status, flat);
}

/** Like the real API: a body field that needs a beta value is refused without it. */
function missingBeta(reply: Extract<Reply, { kind: 'json' }>, rec: RecordedRequest): string | null {
  if (!reply.betaForField) return null;
  const parsed = tryParse(rec.body.toString('utf8'));
  if (!parsed.ok || parsed.node.t !== 'obj') return null;
  const betas = headerValues(rec, 'anthropic-beta').flatMap((v) => v.split(',').map((s) => s.trim()));
  for (const [field, beta] of Object.entries(reply.betaForField)) {
    if (bodyHasField(parsed.node, field) && !betas.includes(beta)) return field;
  }
  return null;
}

const NGHTTP2_INTERNAL_ERROR = constants.NGHTTP2_INTERNAL_ERROR;

/** Closes the connection under an unfinished answer: what was written goes out, then FIN without the last chunk (h2: the stream is reset). */
function breakOff(res: http.ServerResponse): void {
  if (overH2(res)) (res as unknown as { stream: import('node:http2').ServerHttp2Stream }).stream.close(NGHTTP2_INTERNAL_ERROR);
  else res.socket?.end();
}

/** Notes a write's moment. The first makes a list of one: an empty list grown by push keeps room for 17, and every request's record keeps it. */
function wrote(rec: RecordedRequest): void {
  const now = performance.now();
  if (rec.sentAt.length) rec.sentAt.push(now);
  else rec.sentAt = [now];
}

export function play(reply: Reply, rec: RecordedRequest, res: http.ServerResponse): void {
  switch (reply.kind) {
    case 'json': {
      const field = missingBeta(reply, rec);
      if (field) {
        writeHead(res, 400, [['content-type', 'application/json']]);
        res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: `${field}: Extra inputs are not permitted` } }));
        return;
      }
      // Compressed where the scenario says so and the forwarded request accepts the coding (ENC-1).
      const coding = reply.gzip === true && acceptsGzip(rec) ? 'gzip' : reply.zstd === true && acceptsZstd(rec) ? 'zstd' : null;
      writeHead(res, reply.status, coding ? [...reply.headers, ['content-encoding', coding], ['vary', 'accept-encoding']] : reply.headers);
      res.end(coding === 'gzip' ? gzipSync(reply.body) : coding === 'zstd' ? zstdFrame(Buffer.from(reply.body)) : reply.body);
      wrote(rec);
      return;
    }
    case 'sse': {
      writeHead(res, reply.status, reply.headers);
      res.flushHeaders();
      const frames = reply.frames;
      // AWS event-stream framing: each frame text goes out as one binary message (src/core/framing.ts).
      const binary = reply.framing === 'aws-eventstream';
      let i = 0;
      let waited = false;
      let timer: NodeJS.Timeout | undefined;
      // Each frame waits for its gap, then is written; back-to-back frames go out at once,
      // pausing only for the socket's back-pressure.
      const step = (): void => {
        timer = undefined;
        while (i < frames.length && !res.destroyed) {
          if (frames[i].gapMs > 0 && !waited) {
            waited = true;
            timer = setTimeout(step, frames[i].gapMs);
            return;
          }
          waited = false;
          const text = frames[i++].data;
          const ok = res.write(binary ? encodeFrame(text) : text);
          wrote(rec);
          if (!ok) {
            res.once('drain', step);
            return;
          }
        }
        if (!res.destroyed) (reply.cut ? breakOff(res) : res.end());
      };
      res.on('close', () => clearTimeout(timer));
      step();
      return;
    }
    case 'hang':
      return;
    case 'mcp':
      // The MCP server answers these itself (mcp.ts); the upstream hands them over before play.
      throw new Error('harness bug: an MCP case reached play()');
    case 'reset':
      // Over HTTP/2 the stream is reset (RST_STREAM), the connection's other streams go on.
      if (overH2(res)) (res as unknown as { stream: import('node:http2').ServerHttp2Stream }).stream.close(NGHTTP2_INTERNAL_ERROR);
      // Over TLS the reset goes to the TCP socket beneath (a TLS socket cannot be reset itself).
      else (((res.socket as { _parent?: import('node:net').Socket } | null)?._parent ?? res.socket) as import('node:net').Socket | null)?.resetAndDestroy();
      return;
  }
}
