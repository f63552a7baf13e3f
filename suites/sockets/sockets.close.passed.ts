// WS-CLOSE-1: a close's code and reason pass through the gateway both ways, and a client's close
// ends the upstream's socket too.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { endSocket, noSocketUpstream, notOpened, openRoute, servedRoutes, socketEvidence, type Opened } from './common.js';

/** The API's own close codes (4000-4999 are the application's): each must arrive as sent. */
const UPSTREAM_CLOSE = { code: 4009, reason: 'gwc: the upstream ends this session' };
const CLIENT_CLOSE = { code: 4010, reason: 'gwc: the client is done' };
/** How long a close may take to cross the gateway (loopback takes a few ms). */
const CLOSE_MS = 3000;

export default defineCheck({
  id: 'sockets.close.passed',
  title: 'Close codes and reasons pass both ways, and a client\'s close ends the upstream\'s socket',
  requirements: ['WS-CLOSE-1'],
  level: 'MUST',
  requirement: 'The code and reason of a close pass through the gateway both ways unchanged, and a client\'s close ends the upstream\'s socket too.',
  fix: 'Pass the close frame on as it came, code and reason (a relay closes its other leg with the same code and reason), and close the upstream\'s socket when the client\'s closes.',
  async run(ctx) {
    if (!ctx.upstream.speaksSockets) return noSocketUpstream();
    const name = servedRoutes(ctx)[0];
    if (!name) return { ok: false, skip: true, message: 'not applicable: the gateway serves no WebSocket route (--websockets none)' };
    const seen: Opened[] = [];
    try {
      // The upstream closes once the client's turn arrived.
      const a = await openRoute(ctx, { route: name, closeAfter: { frames: 1, ...UPSTREAM_CLOSE } });
      seen.push(a);
      if (a.o.kind !== 'open') return notOpened(a);
      const s = a.o.socket;
      s.send(a.route.turn(`Say hello. ${a.c.token}`)[0]);
      await s.until(() => false, CLOSE_MS);
      if (!s.closed) return fail(`${name}: the upstream closed with ${UPSTREAM_CLOSE.code}, and the client's socket was still open ${CLOSE_MS} ms later`, { evidence: socketEvidence(a) });
      if (s.closed.code !== UPSTREAM_CLOSE.code || s.closed.reason !== UPSTREAM_CLOSE.reason) return fail(`${name}: the upstream closed with ${UPSTREAM_CLOSE.code} (${UPSTREAM_CLOSE.reason}); the client got ${s.closed.code}${s.closed.reason ? ` (${s.closed.reason})` : ' with no reason'}`, { expected: `${UPSTREAM_CLOSE.code} ${UPSTREAM_CLOSE.reason}`, actual: `${s.closed.code} ${s.closed.reason}`, evidence: socketEvidence(a) });
      // The client closes.
      const b = await openRoute(ctx, { route: name });
      seen.push(b);
      if (b.o.kind !== 'open') return notOpened(b);
      b.o.socket.close(CLIENT_CLOSE.code, CLIENT_CLOSE.reason);
      const up = await b.c.closed(CLOSE_MS);
      if (!up) return fail(`${name}: the client closed with ${CLIENT_CLOSE.code}, and the upstream's socket was still open ${CLOSE_MS} ms later: the upstream goes on working for nobody`, { evidence: socketEvidence(b) });
      if (up.code !== CLIENT_CLOSE.code || up.reason !== CLIENT_CLOSE.reason) return fail(`${name}: the client closed with ${CLIENT_CLOSE.code} (${CLIENT_CLOSE.reason}); the upstream got ${up.code}${up.reason ? ` (${up.reason})` : ' with no reason'}`, { expected: `${CLIENT_CLOSE.code} ${CLIENT_CLOSE.reason}`, actual: `${up.code} ${up.reason}`, evidence: socketEvidence(b) });
      return pass(`${name}: ${UPSTREAM_CLOSE.code} reached the client and ${CLIENT_CLOSE.code} the upstream, with their reasons`, { routes: seen.map((x) => socketEvidence(x)) });
    } finally {
      seen.forEach(endSocket);
    }
  },
});
