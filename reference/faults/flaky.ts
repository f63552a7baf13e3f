// A flaky fault: breaks a requirement every other time, to prove that --repeat tells
// a flaky verdict from a steady one. It counts per request body (case tokens left out), so a
// check's attempts alternate whatever other checks send count_tokens beside them and in what
// order; its counts live as long as the gateway that serves it.
import type { Fault, RequestParts } from './types.js';

const isCountTokens = (r: RequestParts) => /^\/v1\/messages\/count_tokens(\?|$)/.test(r.path);

/** flaky-count-tokens with counts of its own (Fault.fresh). */
function flakyCountTokens(): Fault {
  /** count_tokens answers the upstream's count had, per request body without its case tokens; the 1st, 3rd, 5th... of each are replaced. */
  const served = new Map<string, number>();
  const served1 = (body: Buffer): number => {
    const key = body.toString('latin1').replace(/gwc-[0-9a-f]+/g, '');
    const n = served.get(key) ?? 0;
    served.set(key, n + 1);
    return n;
  };
  return {
    name: 'flaky-count-tokens',
    breaks: ['MSG-CT-1'],
    description: 'every other successful count_tokens answer (the 1st, 3rd, ...) carries its own estimate instead of the upstream\'s count',
    responseWhen: isCountTokens,
    response: (status, headers, body, r) => {
      if (status !== 200) return null;
      if (served1(r.body) % 2 === 1) return null;
      const kept: Record<string, string> = {};
      for (const [k, v] of Object.entries(headers)) if (v !== undefined && !['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k)) kept[k] = Array.isArray(v) ? v.join(', ') : v;
      return { status: 200, headers: { ...kept, 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ input_tokens: Math.ceil(body.length / 4) })) };
    },
    fresh: flakyCountTokens,
  };
}

export const FLAKY_FAULTS: Fault[] = [flakyCountTokens()];
