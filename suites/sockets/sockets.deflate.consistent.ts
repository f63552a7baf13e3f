// WS-DEFLATE-1: with permessage-deflate offered, what the client is told is negotiated is what
// the gateway speaks to it: compressed messages pass both ways intact.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { endSocket, noSocketUpstream, notOpened, openRoute, servedRoutes, socketEvidence } from './common.js';

/** Compressible, and over the 1 KiB under which a side may send a message uncompressed. */
const MESSAGE = JSON.stringify({ type: 'gwc.deflate', text: 'the same words again and again '.repeat(2048) });
const ECHO_MS = 5000;

export default defineCheck({
  id: 'sockets.deflate.consistent',
  title: 'permessage-deflate is negotiated consistently: compressed messages pass both ways',
  requirements: ['WS-DEFLATE-1'],
  level: 'MUST',
  requirement: 'When the client offers permessage-deflate, the extension the client is told is on is the one the gateway speaks to it, and compressed messages pass both ways intact.',
  fix: 'Negotiate permessage-deflate on each leg yourself (answer the client\'s offer with what the gateway inflates and deflates), or pass the offer and the answer through untouched together with the frames; never pass the upstream\'s `Sec-WebSocket-Extensions` answer on while re-framing the messages, or the other way round.',
  async run(ctx) {
    if (!ctx.upstream.speaksSockets) return noSocketUpstream();
    const name = servedRoutes(ctx)[0];
    if (!name) return { ok: false, skip: true, message: 'not applicable: the gateway serves no WebSocket route (--websockets none)' };
    const x = await openRoute(ctx, { route: name, echo: true }, { deflate: true });
    try {
      if (x.o.kind !== 'open') return notOpened(x);
      const s = x.o.socket;
      const told = s.extensions || 'none';
      s.send(MESSAGE);
      await s.until(() => s.frames.length >= 1, ECHO_MS);
      const up = x.c.sockets[0];
      const at = up?.frames.find((f) => f.dir === 'in');
      const hops = `client told ${told}, upstream negotiated ${up?.extensions || 'none'}`;
      if (!at || at.sha256 !== s.sent[0].sha256) return fail(`${name}: the message did not reach the upstream intact (${hops})${s.closed ? `; the socket closed with ${s.closed.code}${s.closed.reason ? ` (${s.closed.reason})` : ''}` : ''}${up?.error ? `; the upstream read: ${up.error}` : ''}`, { expected: 'the message at the upstream, as sent', actual: at ? `${at.bytes} bytes of other content` : 'nothing', evidence: socketEvidence(x, { hops }) });
      const back = s.frames[0];
      if (!back || back.sha256 !== at.sha256) return fail(`${name}: the upstream's echo did not reach the client intact (${hops})${s.closed ? `; the socket closed with ${s.closed.code}` : ''}${s.error ? `: ${s.error}` : ''}`, { evidence: socketEvidence(x, { hops }) });
      return pass(`${name}: a ${MESSAGE.length}-byte message passed both ways with deflate offered (${hops})`, socketEvidence(x, { hops }));
    } finally {
      endSocket(x);
    }
  },
});
