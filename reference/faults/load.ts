// Faults that show under load or with a declared limit (the load profile's checks,
// test/load/load-detection.test.ts): answers crossing between concurrent requests (always, or only while they overlap), streams buffered
// when many are open, a tiny upstream pool, a per-request delay, upstream overload answers
// changed or retried too often, limits answered wrongly, and every request's body kept in memory.
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
    fresh: modelCache,
  };
}

/**
 * Mixes up JSON answers only while requests overlap: an answer is replaced by the one the gateway
 * delivered just before it, when that one was delivered after this request arrived (the two were
 * in flight at the gateway at once). A request alone in flight always gets its own answer.
 */
function mixupWhenOverlapping(): Fault {
  let clock = 0;
  const arrived = new WeakMap<RequestParts, number>();
  let last: { done: number; body: Buffer; type: string } | undefined;
  return {
    name: 'load-mixup-when-overlapping',
    breaks: ['LOAD-1'],
    description: 'hands a JSON answer the body of the answer delivered just before it when the two requests were in flight at once (a shared reply buffer); a request alone in flight gets its own',
    request: (r) => void (streamed(r) || arrived.set(r, ++clock)),
    responseWhen: (r, status) => !streamed(r) && status === 200,
    response(status, headers, body, r) {
      const at = arrived.get(r);
      const prev = last;
      last = { done: ++clock, body, type: String(headers['content-type'] ?? 'application/json') };
      if (at === undefined || !prev || prev.done < at) return null;
      return { status, headers: { 'content-type': prev.type }, body: prev.body };
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

const overloaded = (status: number) => status === 429 || status === 529;

/** True once more than `n` upstream 429/529 answers came within the last second (the gateway is under load). */
function overloadWindow(n: number): () => boolean {
  const at: number[] = [];
  return () => {
    const now = Date.now();
    at.push(now);
    while (at.length && now - at[0] > 1000) at.shift();
    return at.length > n;
  };
}

/** A circuit breaker: past 4 upstream 429/529 answers within a second, its own JSON 502 replaces them. */
function overloadAs502(): Fault {
  const busy = overloadWindow(4);
  const body = Buffer.from(JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'upstream overloaded: circuit open' } }));
  return {
    name: 'load-overload-as-502',
    breaks: ['LOAD-4'],
    description: 'a circuit breaker: past 4 upstream 429/529 answers within one second, it answers its own JSON 502 (no retry-after) in their place',
    responseWhen: (_r, status) => status !== undefined && overloaded(status),
    response: () => (busy() ? { status: 502, headers: { 'content-type': 'application/json' }, body } : null),
  };
}

/** A busy error path that rebuilds the answer from status and body: past 4 429/529 answers within a second, retry-after is lost. */
function overloadDropRetryAfter(): Fault {
  const busy = overloadWindow(4);
  return {
    name: 'load-overload-drop-retry-after',
    breaks: ['LOAD-4'],
    description: 'past 4 upstream 429/529 answers within one second, passes on their status and body but not their headers (retry-after lost)',
    responseWhen: (_r, status) => status !== undefined && overloaded(status),
    response: (status, headers, body) => (busy() ? { status, headers: { 'content-type': String(headers['content-type'] ?? 'application/json') }, body } : null),
  };
}

/** Keeps a copy of every request's body for as long as the gateway runs (a log buffer never emptied). */
function keepsBodies(): Fault {
  const kept: Buffer[] = [];
  return {
    name: 'load-keeps-bodies',
    breaks: ['LOAD-RES-1'],
    description: 'keeps a copy of every request body in memory for as long as it runs: its memory grows with every request',
    request: (r) => void kept.push(Buffer.from(r.body)),
    fresh: keepsBodies,
  };
}

export const LOAD_FAULTS: Fault[] = [
  modelCache(),
  bufferWhenMany(),
  { name: 'load-tiny-pool', breaks: ['LOAD-3'], description: 'opens at most 2 connections to the upstream: requests queue behind slow answers', upstreamSockets: 2 },
  { name: 'load-added-delay', breaks: ['LOAD-PERF-1'], description: 'waits 300 ms before forwarding each request (far over a declared budget of 30 ms)', delayMs: () => 300 },
  overloadAs502(),
  overloadDropRetryAfter(),
  { name: 'load-retry-over-bound', breaks: ['LOAD-4'], description: 'retries an upstream 429 three times, each after its retry-after: one more than the declared bound of 2', retry: { status: 429, times: 3, honourRetryAfter: true } },
  { name: 'limit-503-html', breaks: ['LIMIT-1'], description: 'answers an over-limit request with an HTML 503 instead of a JSON 429', limit: { html503: true } },
  { name: 'limit-forward-first', breaks: ['LIMIT-1'], description: 'forwards an over-limit request to the upstream, then answers 429', limit: { forwardFirst: true } },
  { name: 'limit-all-credentials', breaks: ['LIMIT-1'], description: 'counts every credential against one shared limit', limit: { shared: true } },
  { name: 'limit-retry-after-zero', breaks: ['LIMIT-2'], description: 'says retry-after: 0 while the window still lasts', limit: { retryAfterS: 0 } },
  mixupWhenOverlapping(),
  keepsBodies(),
];
