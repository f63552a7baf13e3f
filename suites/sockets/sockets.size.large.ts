// WS-SIZE-1: a large message (4 MiB in one `response.create`-sized frame) and a message sent in
// fragments reach the upstream whole and unchanged, and come back so (the upstream echoes them).
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { endSocket, noSocketUpstream, notOpened, openRoute, servedRoutes, socketEvidence, type Opened } from './common.js';

const LARGE = 4 * 1024 * 1024;
const FRAGMENTED = { bytes: 256 * 1024, fragments: 16 };
/** The most two echoes of a few MiB may take on loopback, with room for a loaded machine. */
const ECHO_MS = 15_000;

/** A JSON message of `bytes` bytes: a turn with a long history, text that does not compress to nothing. */
function message(bytes: number, tag: string): string {
  const head = `{"type":"gwc.large","tag":"${tag}","text":"`;
  let text = '';
  for (let i = 0; text.length < bytes - head.length - 2; i++) text += `${i.toString(36)} lorem ipsum dolor sit amet; `;
  return `${head}${text.slice(0, bytes - head.length - 2)}"}`;
}

export default defineCheck({
  id: 'sockets.size.large',
  title: 'A 4 MiB WebSocket message and a fragmented one pass whole and unchanged',
  requirements: ['WS-SIZE-1'],
  level: 'MUST',
  exclusive: true,
  requirement: 'A large message (a few MiB) and a message the client sends in several fragments reach the other side whole and unchanged, both ways.',
  fix: 'Raise the gateway\'s WebSocket message limit to the largest request your clients send (tens of MiB: a history with images goes in one `response.create`), and pass a fragmented message on as one message or as its fragments, never as several messages.',
  async run(ctx) {
    if (!ctx.upstream.speaksSockets) return noSocketUpstream();
    const name = servedRoutes(ctx)[0];
    if (!name) return { ok: false, skip: true, message: 'not applicable: the gateway serves no WebSocket route (--websockets none)' };
    const x: Opened = await openRoute(ctx, { route: name, echo: true });
    try {
      if (x.o.kind !== 'open') return notOpened(x);
      const s = x.o.socket;
      s.send(message(LARGE, 'large'));
      s.send(message(FRAGMENTED.bytes, 'fragmented'), { fragments: FRAGMENTED.fragments });
      await s.until(() => s.frames.length >= 2, ECHO_MS);
      const up = x.c.sockets[0]?.frames.filter((f) => f.dir === 'in') ?? [];
      const what = ['the 4 MiB message', `the message sent in ${FRAGMENTED.fragments} fragments`];
      for (let i = 0; i < 2; i++) {
        const sent = s.sent[i];
        const at = up[i];
        if (!at) return fail(`${name}: ${what[i]} never reached the upstream${s.closed ? `; the socket closed with ${s.closed.code}${s.closed.reason ? ` (${s.closed.reason})` : ''}` : ''}`, { expected: `${sent.bytes} bytes at the upstream`, actual: s.closed ? `closed ${s.closed.code}` : 'nothing', evidence: socketEvidence(x) });
        if (at.sha256 !== sent.sha256) return fail(`${name}: ${what[i]} arrived changed: ${sent.bytes} bytes sent, ${at.bytes} arrived${up.length > 2 ? ` (the upstream got ${up.length} messages for 2)` : ''}`, { evidence: socketEvidence(x) });
        const back = s.frames[i];
        if (!back || back.sha256 !== sent.sha256) return fail(`${name}: the upstream's echo of ${what[i]} ${back ? (s.sent.some((o) => o.sha256 === back.sha256) ? 'arrived out of order (the other message came in its place)' : `arrived changed (${back.bytes} bytes)`) : `did not reach the client within ${ECHO_MS / 1000} s${s.closed ? ` (closed ${s.closed.code})` : ''}`}`, { evidence: socketEvidence(x) });
      }
      return pass(`${name}: ${LARGE} bytes and ${FRAGMENTED.bytes} bytes in ${FRAGMENTED.fragments} fragments passed both ways unchanged`, socketEvidence(x));
    } finally {
      endSocket(x);
    }
  },
});
