// Faults that show under load or with a declared limit (the load profile's checks,
// test/load-detection.test.ts): answers crossing between concurrent requests, streams buffered
// when many are open, a tiny upstream pool, a per-request delay, and limits answered wrongly.
import { Transform } from 'node:stream';
import type { Fault, RequestParts } from './types.js';

const streamed = (r: RequestParts) => /"stream":\s*true/.test(r.body.toString('latin1')) || /streamGenerateContent/.test(r.path);

/** A response cache keyed by path and model only: a later request within 500 ms gets an earlier one's answer. */
function modelCache(): Fault {
  const cache = new Map<string, { at: number; status: number; body: Buffer; type: string }>();
  return {
    name: 'load-model-cache',
    breaks: ['LOAD-1'],
    description: 'caches JSON answers by path and model only (not the prompt): concurrent requests for one model get each other\'s answers',
    responseWhen: (r) => !streamed(r),
    response(status, headers, body, r) {
      const model = /"model"\s*:\s*"([^"]*)"/.exec(r.body.toString('utf8'))?.[1] ?? '';
      const key = `${r.path} ${model}`;
      const hit = cache.get(key);
      if (hit && Date.now() - hit.at < 500) return { status: hit.status, headers: { 'content-type': hit.type }, body: hit.body };
      cache.set(key, { at: Date.now(), status, body, type: String(headers['content-type'] ?? 'application/json') });
      return null;
    },
  };
}

/** Buffers a stream to its end when more than 8 streams are open as it starts. */
function bufferWhenMany(): Fault {
  let open = 0;
  return {
    name: 'load-buffer-when-many',
    breaks: ['LOAD-2'],
    description: 'buffers a stream until its end when more than 8 streams are open at once',
    stream(r, status, headers) {
      if (!streamed(r)) return null;
      open++;
      const many = open > 8;
      const held: Buffer[] = [];
      let done = false;
      const end = () => void (done || ((done = true), open--));
      const transform = new Transform({
        transform(c: Buffer, _e, cb) {
          if (many) held.push(c);
          else this.push(c);
          cb();
        },
        flush(cb) {
          for (const c of held) this.push(c);
          end();
          cb();
        },
      });
      transform.on('close', end);
      return { headers, transform };
    },
  };
}

export const LOAD_FAULTS: Fault[] = [
  modelCache(),
  bufferWhenMany(),
  { name: 'load-tiny-pool', breaks: ['LOAD-3'], description: 'opens at most 2 connections to the upstream: requests queue behind slow answers', upstreamSockets: 2 },
  { name: 'load-added-delay', breaks: ['LOAD-PERF-1'], description: 'waits 60 ms before forwarding each request (over a declared budget of 30 ms)', delayMs: () => 60 },
  { name: 'limit-503-html', breaks: ['LIMIT-1'], description: 'answers an over-limit request with an HTML 503 instead of a JSON 429', limit: { html503: true } },
  { name: 'limit-forward-first', breaks: ['LIMIT-1'], description: 'forwards an over-limit request to the upstream, then answers 429', limit: { forwardFirst: true } },
  { name: 'limit-all-credentials', breaks: ['LIMIT-1'], description: 'counts every credential against one shared limit', limit: { shared: true } },
  { name: 'limit-retry-after-zero', breaks: ['LIMIT-2'], description: 'says retry-after: 0 while the window still lasts', limit: { retryAfterS: 0 } },
];
