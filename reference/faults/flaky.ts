// A flaky fault: breaks a requirement every other time, to prove that --repeat tells
// a flaky verdict from a steady one. Its counter lives as long as the process that serves it.
import type { Fault, RequestParts } from './types.js';

const isCountTokens = (r: RequestParts) => /^\/v1\/messages\/count_tokens(\?|$)/.test(r.path);

/** count_tokens answers the upstream's count had; the 1st, 3rd, 5th... of them are replaced. */
let served = 0;

export const FLAKY_FAULTS: Fault[] = [
  {
    name: 'flaky-count-tokens',
    breaks: ['MSG-CT-1'],
    description: 'every other successful count_tokens answer (the 1st, 3rd, ...) carries its own estimate instead of the upstream\'s count',
    responseWhen: isCountTokens,
    response: (status, headers, body) => {
      if (status !== 200) return null;
      if (served++ % 2 === 1) return null;
      const kept: Record<string, string> = {};
      for (const [k, v] of Object.entries(headers)) if (v !== undefined && !['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k)) kept[k] = Array.isArray(v) ? v.join(', ') : v;
      return { status: 200, headers: { ...kept, 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ input_tokens: Math.ceil(body.length / 4) })) };
    },
  },
];
