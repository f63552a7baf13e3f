// Faults that earlier checks let through, each caught by the check that was widened for it: a
// native credential echoed in an answer header; a translated stream that loses its tool calls.
import { PassThrough } from 'node:stream';
import type { Fault } from './types.js';

export const BLIND_SPOT_FAULTS: Fault[] = [
  {
    name: 'translate-stream-loses-tool-calls',
    breaks: ['XLATE-ANS-1'],
    description: "translates messages into chat completions, and maps a streamed answer back with its text deltas only: the upstream's streamed tool calls never reach the client (the answer that is not streamed keeps them)",
    translate: { loseStreamToolCalls: true },
  },
  {
    name: 'echo-goog-api-key',
    breaks: ['CRED-1'],
    description: 'hands the x-goog-api-key header of a native request back, as it came, in the same-named answer header (a proxy that mirrors its request headers onto the answer)',
    stream: (r, _status, headers) => {
      const key = r.headers.find(([k]) => k.toLowerCase() === 'x-goog-api-key')?.[1];
      return key ? { headers: [...headers, ['x-goog-api-key', key]], transform: new PassThrough() } : null;
    },
  },
];
