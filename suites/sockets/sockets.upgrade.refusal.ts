// WS-UP-2: an upgrade that is not offered (the upstream refuses it, or the gateway does not serve
// the route) is refused in one clean answer a client reads as "not offered" (426 Upgrade
// Required, which clients such as Codex take as the signal to fall back to HTTP at once): never a
// 405 or 404 that a client retries, never a 101 followed by a close. The time the client lost
// before the answer is in the evidence.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { SOCKET_ROUTES } from '../../src/core/protocols.js';
import { endSocket, noSocketUpstream, openRoute, servedRoutes, socketEvidence, type Opened } from './common.js';

/** The refusal a WebSocket-only endpoint that does not offer the socket answers. */
const REFUSAL = { status: 426, body: JSON.stringify({ error: { type: 'invalid_request_error', code: 'websocket_not_offered', message: 'WebSocket transport is not available here; use HTTP' } }) };
/** After a 101, how long the socket is watched for a close that says the upgrade was refused after all. */
const WATCH_MS = 1500;

export default defineCheck({
  id: 'sockets.upgrade.refusal',
  title: 'An upgrade that is not offered gets one clean 426, not a 405 or a 101 then a close',
  requirements: ['WS-UP-2'],
  level: 'MUST',
  requirement: 'An upgrade the upstream refuses, or one on a WebSocket route the gateway does not serve, is answered once with 426 Upgrade Required (the upstream\'s own refusal passed on as it came), which a client reads as "not offered" and falls back to HTTP; not 405 or 404, which clients retry, and never 101 followed by a close.',
  fix: 'Pass the upstream\'s answer to an upgrade on as it came, and complete the client\'s upgrade (101) only once the upstream\'s has succeeded. Where the gateway does not carry WebSockets, answer the upgrade `426 Upgrade Required` (not 404 or 405), so a client such as Codex falls back to HTTPS at once instead of retrying.',
  async run(ctx) {
    if (!ctx.upstream.speaksSockets) return noSocketUpstream();
    const served = servedRoutes(ctx);
    const seen: Opened[] = [];
    const lost: Record<string, number> = {};
    try {
      for (const name of SOCKET_ROUTES) {
        const x = await openRoute(ctx, { route: name, refuse: REFUSAL });
        seen.push(x);
        const where = served.includes(name) ? 'refused by the upstream' : 'a route the gateway does not serve';
        if (x.o.kind === 'open') {
          const s = x.o.socket;
          await s.until(() => false, WATCH_MS);
          const closed = s.closed ? `closed it ${Math.round(s.closed.at - s.openedAt)} ms later with ${s.closed.code}${s.closed.reason ? ` (${s.closed.reason})` : ''}` : `kept it open for ${WATCH_MS} ms with no upstream behind it`;
          return fail(`${name} (${where}): the gateway answered 101 and ${closed}: a client sees a socket that fails, not a refusal, and does not fall back`, { expected: '426, one answer', actual: '101 then a close', evidence: socketEvidence(x, { lostMs: Math.round((s.closed?.at ?? s.openedAt) - s.openedAt + x.o.ms) }) });
        }
        if (x.o.kind === 'failed') return fail(`${name} (${where}): the upgrade's answer was not an HTTP answer a client can read (${x.o.error}) after ${x.o.ms} ms`, { expected: '426', actual: x.o.error, evidence: socketEvidence(x) });
        lost[name] = x.o.ms;
        if (x.o.status !== 426) return fail(`${name} (${where}): the upgrade was answered ${x.o.status} after ${x.o.ms} ms, which clients retry (field reports saw five retries and 5-10 s lost before the fallback) instead of 426 Upgrade Required`, { expected: '426', actual: String(x.o.status), evidence: socketEvidence(x, { lostMs: x.o.ms }) });
      }
      return pass(`every refused upgrade got one 426 (${Object.entries(lost).map(([k, ms]) => `${k} after ${ms} ms`).join(', ')})`, { lostMs: lost, routes: seen.map((x) => socketEvidence(x)) });
    } finally {
      seen.forEach(endSocket);
    }
  },
});
