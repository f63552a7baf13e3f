// The reference gateway's HTTP/2 hop to a TLS upstream (reference/h2.ts): a control that speaks
// HTTP/2 upstream and breaks nothing, and a pool that gives up its session after one reset
// stream yet goes on handing it out (CONN-IDLE-1), a known class of bug in HTTP/2 client pools.
// The run's recording upstream serves TLS and HTTP/2 for them (mocks/upstream/for-gateway.ts).
import type { Fault } from './types.js';

export const H2_FAULTS: Fault[] = [
  {
    name: 'h2-upstream-clean',
    breaks: [],
    description: 'A control: the gateway speaks HTTP/2 to a TLS upstream, one session per upstream, a reset stream failing only its own request; nothing is broken',
    upstreamHttp2: {},
  },
  {
    name: 'h2-reset-poisons-session',
    breaks: ['CONN-IDLE-1'],
    description: 'The gateway speaks HTTP/2 to a TLS upstream; when the upstream resets one stream it destroys the whole session but keeps handing it out from its pool, so every later request fails (502) until restart',
    upstreamHttp2: { resetPoisonsSession: true },
  },
];
