// WS-MSG-1: messages both ways arrive unchanged and in order, unknown fields included, and one
// socket carries several answers in turn (two turns on each served route).
import { defineCheck, fail, pass } from '../../src/check/check.js';
import type { SocketFrame } from '../../src/upstream/socket.js';
import { endSocket, noSocketUpstream, notOpened, oneTurn, openRoute, servedRoutes, socketEvidence, type Opened } from './common.js';

/** Fields the client's request frame carries that the route's API may not know (and one it does: Codex's stream_id): each must arrive as sent. */
const EXTRA = { stream_id: 'gwc-stream-1', gwc_unknown: { nested: [1, 'two', { three: null }], 'odd key é': true } };

/** The first place two sides' message lists differ, in words; null when they are the same. */
function differ(sent: SocketFrame[], got: SocketFrame[], way: string): string | null {
  for (let i = 0; i < Math.max(sent.length, got.length); i++) {
    const a = sent[i];
    const b = got[i];
    if (!b) return `${way}: message ${i + 1} of ${sent.length} never arrived (${got.length} did)`;
    if (!a) return `${way}: ${got.length - sent.length} message(s) arrived that were not sent`;
    if (a.sha256 !== b.sha256) {
      const later = got.findIndex((g) => g.sha256 === a.sha256);
      return later > i ? `${way}: message ${i + 1} arrived out of order (as message ${later + 1})` : `${way}: message ${i + 1} arrived changed (${a.bytes} bytes sent, ${b.bytes} arrived)${fieldsChanged(a.text, b.text)}`;
    }
  }
  return null;
}

/** The top-level fields of two JSON messages that differ, in words (empty when they are not both JSON objects). */
function fieldsChanged(sent: string, got: string): string {
  try {
    const a = JSON.parse(sent) as Record<string, unknown>;
    const b = JSON.parse(got) as Record<string, unknown>;
    const gone = Object.keys(a).filter((k) => !(k in b));
    const added = Object.keys(b).filter((k) => !(k in a));
    const changed = Object.keys(a).filter((k) => k in b && JSON.stringify(a[k]) !== JSON.stringify(b[k]));
    const parts = [gone.length ? `dropped ${gone.join(', ')}` : '', added.length ? `added ${added.join(', ')}` : '', changed.length ? `changed ${changed.join(', ')}` : ''].filter(Boolean);
    return parts.length ? `: ${parts.join('; ')}` : ': the same fields, other bytes';
  } catch {
    return `: sent ${sent.slice(0, 120)}, arrived ${got.slice(0, 120)}`;
  }
}

export default defineCheck({
  id: 'sockets.frames.unchanged',
  title: 'WebSocket messages arrive unchanged and in order both ways, unknown fields included',
  requirements: ['WS-MSG-1'],
  level: 'MUST',
  requirement: 'On a WebSocket route, every message the client sends reaches the upstream byte for byte and in order, fields the gateway does not know included, and every message the upstream sends reaches the client so; one socket carries several answers in turn.',
  fix: 'Relay WebSocket messages as they come: do not parse and re-serialise them, drop or rename fields of `response.create` or `session.update`, or reorder them; a gateway that must read a message passes the original bytes on.',
  async run(ctx) {
    if (!ctx.upstream.speaksSockets) return noSocketUpstream();
    const routes = servedRoutes(ctx);
    if (!routes.length) return { ok: false, skip: true, message: 'not applicable: the gateway serves no WebSocket route (--websockets none)' };
    const seen: Opened[] = [];
    try {
      for (const name of routes) {
        const x = await openRoute(ctx, { route: name });
        seen.push(x);
        if (x.o.kind !== 'open') return notOpened(x);
        const open = x as Opened & { o: { kind: 'open' } };
        for (let turn = 1; turn <= 2; turn++) {
          const sent = open.route.turn('', EXTRA).length * turn;
          if (!(await oneTurn(open, EXTRA))) {
            await x.c.frames('in', sent, 1000);
            const d = differ(open.o.socket.sent, x.c.sockets[0]?.frames.filter((f) => f.dir === 'in') ?? [], 'client to upstream');
            return fail(`${name}: turn ${turn}'s answer did not reach its end (${open.route.ends}) within 5 s${d ? `; ${d}` : ''}`, { evidence: socketEvidence(x) });
          }
        }
        const up = x.c.sockets[0]!;
        const toUp = differ(open.o.socket.sent, up.frames.filter((f) => f.dir === 'in'), 'client to upstream');
        const toClient = differ(up.frames.filter((f) => f.dir === 'out'), open.o.socket.frames, 'upstream to client');
        if (toUp || toClient) return fail(`${name}: ${toUp ?? toClient}`, { expected: 'every message as sent, in order', actual: (toUp ?? toClient)!, evidence: socketEvidence(x) });
        endSocket(x);
      }
      return pass(`every message arrived unchanged and in order both ways, two answers on each socket (${routes.join(', ')})`, { routes: seen.map((x) => socketEvidence(x)) });
    } finally {
      seen.forEach(endSocket);
    }
  },
});

