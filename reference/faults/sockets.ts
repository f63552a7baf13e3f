// Faults of the reference gateway's WebSocket relay (reference/socket.ts), each breaking one
// requirement of the WebSocket routes: the upgrade carried without its headers, refused with 405,
// completed before the upstream's, a beta header dropped, the upstream's messages reordered, a
// field of `response.create` dropped on the socket only, the upstream's messages held and sent in
// bursts, close codes replaced, pings unanswered, quiet sockets cut, a message size limit, binary
// sent as text, permessage-deflate told to the client but not spoken.
import type { Fault, SocketSend } from './types.js';

/** Swaps each pair of the upstream's messages (the first of a pair waits for the second, or for a moment when none comes). */
function reordered(send: SocketSend): SocketSend {
  let held: [Buffer, boolean] | null = null;
  let timer: NodeJS.Timeout | undefined;
  return (data, binary) => {
    if (!held) {
      held = [data, binary];
      // A fault's own wait: a lone last message is not kept for ever.
      timer = setTimeout(() => held && (send(...held), (held = null)), 200);
      return;
    }
    clearTimeout(timer);
    send(data, binary);
    send(...held);
    held = null;
  };
}

/** Holds the upstream's messages and passes them on together every BURST_MS (a relay that batches its writes). */
const BURST_MS = 500;
function bursts(send: SocketSend): SocketSend {
  const held: Array<[Buffer, boolean]> = [];
  let timer: NodeJS.Timeout | undefined;
  return (data, binary) => {
    held.push([data, binary]);
    timer ??= setTimeout(() => {
      timer = undefined;
      for (const [d, b] of held.splice(0)) send(d, b);
    }, BURST_MS);
  };
}

/** `response.create` without `stream_id`, on the socket only (the HTTP path keeps every field). */
function dropStreamId(data: Buffer, binary: boolean): Buffer {
  if (binary) return data;
  try {
    const v = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
    if (v.type !== 'response.create' || !('stream_id' in v)) return data;
    delete v.stream_id;
    return Buffer.from(JSON.stringify(v));
  } catch {
    return data;
  }
}

export const SOCKETS_FAULTS: Fault[] = [
  { name: 'ws-strip-upgrade', breaks: ['WS-UP-1'], description: 'Forwards a WebSocket upgrade without its Upgrade and Connection headers (plain nginx): the upstream gets a plain GET', socket: { plain: true } },
  { name: 'ws-drop-beta', breaks: ['WS-UP-1'], description: 'Carries the upgrade but drops its OpenAI-Beta header', socket: { dropHeader: 'openai-beta' } },
  { name: 'ws-405', breaks: ['WS-UP-1', 'WS-UP-2'], description: 'Answers every WebSocket upgrade 405 itself (a gateway that does not carry WebSockets and says so badly)', socket: { refuseStatus: 405 } },
  { name: 'ws-accept-first', breaks: ['WS-UP-2'], description: 'Completes the client\'s upgrade (101) before the upstream answered, and closes the socket when the upstream refuses', socket: { acceptFirst: true } },
  { name: 'ws-reorder', breaks: ['WS-MSG-1'], description: 'Passes the upstream\'s WebSocket messages on with each pair swapped', socket: { toClient: reordered } },
  { name: 'ws-burst', breaks: ['WS-MSG-2'], description: `Holds the upstream's WebSocket messages and passes them on together every ${BURST_MS} ms`, socket: { toClient: bursts } },
  { name: 'ws-close-code', breaks: ['WS-CLOSE-1'], description: 'Replaces the code of every close it passes on (either way) with 1000, its reason kept', socket: { closeCode: 1000 } },
  { name: 'ws-no-pong', breaks: ['WS-PING-1'], description: 'Answers no ping, the client\'s nor the upstream\'s', socket: { noPong: true } },
  { name: 'ws-idle-cut', breaks: ['WS-IDLE-1'], description: 'Cuts a WebSocket that carried nothing for 5 s (a proxy read time-out below the declared 10 s)', socket: { idleCutMs: 5000 } },
  { name: 'ws-size-limit', breaks: ['WS-SIZE-1'], description: 'Takes WebSocket messages of at most 1 MiB (it closes with 1009 past it)', socket: { maxMessageBytes: 1024 * 1024 } },
  { name: 'ws-binary-as-text', breaks: ['WS-BIN-1'], description: 'Passes binary WebSocket messages on as text', socket: { textOnly: true } },
  { name: 'ws-deflate-one-side', breaks: ['WS-DEFLATE-1'], description: 'Tells the client permessage-deflate is on, but neither inflates nor offers it upstream', socket: { advertiseDeflate: true } },
  { name: 'ws-drop-stream-id', breaks: ['WS-MSG-1'], description: 'Drops the stream_id field of response.create on the WebSocket path only (the HTTP path keeps it)', socket: { toUpstream: dropStreamId } },
];
