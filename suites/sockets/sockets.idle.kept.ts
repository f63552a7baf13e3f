// WS-IDLE-1: a WebSocket that carries nothing for the declared bound (--websocket-idle-s) is not
// cut: a turn after the silence still goes through both ways.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { endSocket, idleSeconds, noSocketUpstream, notOpened, oneTurn, openRoute, servedRoutes, socketEvidence } from './common.js';

export default defineCheck({
  id: 'sockets.idle.kept',
  title: 'A WebSocket silent for the declared bound is not cut',
  requirements: ['WS-IDLE-1'],
  level: 'MUST',
  background: true,
  timeLimitMs: (s) => idleSeconds(s) * 1000 + 30_000,
  requirement: 'A WebSocket that carries nothing for the declared bound (`--websocket-idle-s`) is not cut by the gateway: a message after the silence still goes through both ways.',
  fix: 'Raise the read time-out of upgraded connections above the longest silence your clients keep (nginx: `proxy_read_timeout 3600s;` and `proxy_send_timeout 3600s;` in the WebSocket location; its default of 60 s cuts every quieter socket), or have the gateway ping the client.',
  async run(ctx) {
    if (!ctx.upstream.speaksSockets) return noSocketUpstream();
    const name = servedRoutes(ctx)[0];
    if (!name) return { ok: false, skip: true, message: 'not applicable: the gateway serves no WebSocket route (--websockets none)' };
    const idleMs = idleSeconds(ctx.settings) * 1000;
    const x = await openRoute(ctx, { route: name });
    try {
      if (x.o.kind !== 'open') return notOpened(x);
      const open = x as typeof x & { o: { kind: 'open' } };
      if (!(await oneTurn(open))) return { ok: false, skip: true, message: `could not judge: ${name}: the first turn's answer did not reach its end (sockets.frames.unchanged judges the messages)`, evidence: socketEvidence(x) };
      const s = open.o.socket;
      const quietFrom = performance.now();
      // The silence itself is what is measured: the wait ends early only if the socket closes.
      await s.until(() => false, idleMs);
      if (s.closed) return fail(`${name}: the socket was cut after ${Math.round((s.closed.at - quietFrom) / 100) / 10} s of silence (code ${s.closed.code}); the declared bound is ${idleMs / 1000} s`, { expected: `the socket open after ${idleMs / 1000} s of silence`, actual: `closed with ${s.closed.code} after ${Math.round((s.closed.at - quietFrom) / 1000)} s`, evidence: socketEvidence(x) });
      if (!(await oneTurn(open))) return fail(`${name}: after ${idleMs / 1000} s of silence the socket was open, but a turn sent on it was not answered within 5 s`, { evidence: socketEvidence(x) });
      return pass(`${name}: a turn went through after ${idleMs / 1000} s of silence`, socketEvidence(x));
    } finally {
      endSocket(x);
    }
  },
});
