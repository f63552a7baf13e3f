// WS-BIN-1: a binary message stays binary and a text message text, both ways, bytes unchanged
// (Gemini Live's JSON travels in binary messages; audio is binary and not UTF-8).
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { endSocket, noSocketUpstream, notOpened, openRoute, servedRoutes, socketEvidence } from './common.js';

/** Bytes that are not UTF-8 (as audio is), and JSON as Live sends it. */
const AUDIO = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x81, 0xc0, 0x01, 0x7f, 0xf5, 0x00]);
const JSON_BINARY = Buffer.from(JSON.stringify({ serverContent: { modelTurn: { parts: [{ text: 'binary JSON' }] } } }));
const TEXT = JSON.stringify({ type: 'gwc.text', text: 'a text message' });
const ECHO_MS = 5000;

export default defineCheck({
  id: 'sockets.binary.kept',
  title: 'Binary WebSocket messages stay binary and text stays text, both ways',
  requirements: ['WS-BIN-1'],
  level: 'MUST',
  requirement: 'A binary message stays binary and a text message stays text on a WebSocket route, both ways, their bytes unchanged.',
  fix: 'Relay each message with its own opcode (binary or text) and its bytes as they came; do not decode binary messages as text.',
  async run(ctx) {
    if (!ctx.upstream.speaksSockets) return noSocketUpstream();
    const served = servedRoutes(ctx);
    const name = served.includes('live') ? 'live' : served[0];
    if (!name) return { ok: false, skip: true, message: 'not applicable: the gateway serves no WebSocket route (--websockets none)' };
    const x = await openRoute(ctx, { route: name, echo: true });
    try {
      if (x.o.kind !== 'open') return notOpened(x);
      const s = x.o.socket;
      s.send(AUDIO, { binary: true });
      s.send(JSON_BINARY, { binary: true });
      s.send(TEXT);
      await s.until(() => s.frames.length >= 3, ECHO_MS);
      const up = x.c.sockets[0]?.frames.filter((f) => f.dir === 'in') ?? [];
      const kinds = ['binary (not UTF-8)', 'binary (JSON)', 'text'];
      for (let i = 0; i < 3; i++) {
        const sent = s.sent[i];
        for (const [where, got] of [['the upstream', up[i]], ['the client (the echo)', s.frames[i]]] as const) {
          if (!got) return fail(`${name}: the ${kinds[i]} message never reached ${where}${s.closed ? `; the socket closed with ${s.closed.code}${s.closed.reason ? ` (${s.closed.reason})` : ''}` : ''}`, { evidence: socketEvidence(x) });
          if (got.binary !== sent.binary) return fail(`${name}: the ${kinds[i]} message reached ${where} as ${got.binary ? 'binary' : 'text'}`, { expected: kinds[i], actual: got.binary ? 'binary' : 'text', evidence: socketEvidence(x) });
          if (got.sha256 !== sent.sha256) return fail(`${name}: the ${kinds[i]} message reached ${where} ${s.sent.some((o) => o.sha256 === got.sha256) ? 'out of order (another message came in its place)' : `with other bytes (${sent.bytes} sent, ${got.bytes} arrived)`}`, { evidence: socketEvidence(x) });
        }
      }
      return pass(`${name}: binary stayed binary and text stayed text, both ways, bytes unchanged`, socketEvidence(x));
    } finally {
      endSocket(x);
    }
  },
});
