// Faults of the reference gateway's declared fallback (reference/fallback.ts): on the way from
// the first upstream to the second, something of the first crosses over (XUP-1). Rebuilt from
// bug reports against gateways whose fallback reused the first deployment's request or answer.
import type { Fault } from './types.js';

export const UPSTREAMS_FAULTS: Fault[] = [
  {
    name: 'fallback-keeps-first-credential',
    breaks: ['XUP-1'],
    description: "On a fallback the second upstream gets the request as the first got it, the first upstream's credential included, instead of its own",
    fallback: { keepCredential: true },
  },
  {
    name: 'fallback-leaks-upstream-headers',
    breaks: ['XUP-1'],
    description: "On a fallback the client's answer from the second upstream also carries the first upstream's answer headers (its request-id and its own headers)",
    fallback: { leakHeaders: true },
  },
  {
    name: 'fallback-quotes-first-error',
    breaks: ['XUP-1'],
    description: "On a fallback the second upstream's request carries a header saying why it came, quoting the first upstream's error answer",
    fallback: { reasonHeader: true },
  },
];
