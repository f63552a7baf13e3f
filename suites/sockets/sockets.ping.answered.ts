// WS-PING-1: a ping the client sends is answered with a pong, and so is a ping the upstream sends.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { endSocket, noSocketUpstream, notOpened, openRoute, servedRoutes, socketEvidence } from './common.js';

/** How long a pong may take (loopback takes a millisecond). */
const PONG_MS = 3000;

export default defineCheck({
  id: 'sockets.ping.answered',
  title: 'Pings on a WebSocket route are answered, the client\'s and the upstream\'s',
  requirements: ['WS-PING-1'],
  level: 'MUST',
  requirement: 'A ping the client sends on a WebSocket route is answered with a pong, and so is a ping the upstream sends.',
  fix: 'Answer pings on both legs (or pass them on and their pongs back); a relay library usually does so unless told not to.',
  async run(ctx) {
    if (!ctx.upstream.speaksSockets) return noSocketUpstream();
    const name = servedRoutes(ctx)[0];
    if (!name) return { ok: false, skip: true, message: 'not applicable: the gateway serves no WebSocket route (--websockets none)' };
    const x = await openRoute(ctx, { route: name, ping: true });
    try {
      if (x.o.kind !== 'open') return notOpened(x);
      const s = x.o.socket;
      const sentAt = performance.now();
      s.ping();
      const client = (await s.until(() => s.pongAt !== undefined, PONG_MS)) ? Math.round(s.pongAt! - sentAt) : null;
      const upstream = await x.c.ponged(PONG_MS);
      const missing = [client === null ? `the client's ping got no pong within ${PONG_MS} ms` : '', upstream === null ? `the upstream's ping got no pong within ${PONG_MS} ms` : ''].filter(Boolean);
      if (missing.length) return fail(`${name}: ${missing.join('; ')}`, { expected: 'a pong to each ping', actual: missing.join('; '), evidence: socketEvidence(x) });
      return pass(`${name}: the client's ping was answered after ${client} ms, and the upstream's too`, socketEvidence(x));
    } finally {
      endSocket(x);
    }
  },
});
