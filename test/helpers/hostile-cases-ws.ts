// The hostile cases of the WebSocket upgrade (test/helpers/hostile-gateway.ts): an upgrade
// answered with garbage, a frame that never ends, a flood of frames, a socket that never closes.
// Plain requests are answered as the upstream answered them (the HTTP checks beside them pass or
// fail on their own); the upgrade never reaches the upstream.
import { createHash } from 'node:crypto';
import type { HostileCase, HostileUpgrade } from './hostile-wire.js';
import { CRLF } from './hostile-wire.js';

const plain: HostileCase['answer'] = (c) => {
  c.res.writeHead(c.up?.status ?? 502, { 'content-type': c.up?.headers['content-type'] ?? 'application/json' });
  c.res.end(c.up?.body ?? '{"error":{"message":"upstream unreachable"}}');
};

/** A valid 101 for the request's key. */
function accept(u: HostileUpgrade): void {
  const key = String(u.req.headers['sec-websocket-key'] ?? '');
  const sig = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
  u.socket.write(`HTTP/1.1 101 Switching Protocols${CRLF}Upgrade: websocket${CRLF}Connection: Upgrade${CRLF}Sec-WebSocket-Accept: ${sig}${CRLF}${CRLF}`);
}

/** An unmasked server text frame of `payload`, FIN set unless `more`. */
function frame(payload: Buffer, more = false, opcode = 0x1): Buffer {
  const n = payload.length;
  const head = n < 126 ? Buffer.from([(more ? 0 : 0x80) | opcode, n]) : Buffer.from([(more ? 0 : 0x80) | opcode, 126, n >> 8, n & 0xff]);
  return Buffer.concat([head, payload]);
}

export const WS_CASES: HostileCase[] = [
  {
    name: 'ws-garbage-upgrade',
    what: 'the upgrade answered with a 101 whose Sec-WebSocket-Accept is garbage, then random bytes',
    answer: plain,
    upgrade: (u) => u.socket.end(`HTTP/1.1 101 Switching Protocols${CRLF}Upgrade: websocket${CRLF}Connection: Upgrade${CRLF}Sec-WebSocket-Accept: not-the-key=${CRLF}${CRLF}\x00\xff\xfe garbage`),
  },
  {
    name: 'ws-endless-frame',
    what: 'a valid 101, then one message that never ends: continuation frames as fast as the client reads',
    answer: plain,
    upgrade: (u) => {
      accept(u);
      const piece = frame(Buffer.alloc(60 * 1024, 'x'), true, 0x0);
      u.socket.write(frame(Buffer.from('{"type":"response.created","x":"'), true));
      u.flood(() => piece);
    },
  },
  {
    name: 'ws-frame-flood',
    what: 'a valid 101, then small complete text messages as fast as the client reads, for ever',
    answer: plain,
    upgrade: (u) => {
      accept(u);
      const one = frame(Buffer.from('{"type":"response.output_text.delta","delta":"flood"}'));
      const many = Buffer.concat(Array.from({ length: 500 }, () => one));
      u.flood(() => many);
    },
  },
  {
    name: 'ws-never-closes',
    what: 'a valid 101, then silence: what the client sends is read and never answered, a close included',
    answer: plain,
    upgrade: (u) => {
      accept(u);
      u.socket.resume();
    },
  },
];
