// The recording upstream's WebSocket side as the checks see it (mocks/upstream/socket.ts
// implements it): what a check scripts for one socket case (SocketScript), what the upstream
// recorded of the upgrade and of every frame both ways (RecordedSocket), and the waits on them.
// A case is tied to its upgrade by the case token (the hint header, else the URL), and a plain
// request without the upgrade that reaches a socket route for it is recorded too.
import type { SocketRouteName } from '../core/protocols.js';

/** The most of one frame's text a record (and the evidence) keeps; its length and digest are kept whole. */
export const FRAME_KEEP = 2048;

export interface SocketScript {
  route: SocketRouteName;
  /** The upstream does not offer the route: it answers the upgrade with this status and JSON body (no 101). */
  refuse?: { status: number; body: string };
  /** The text of each answer, in these pieces (one frame each). */
  pieces?: string[];
  /** Between the frames of one answer: wait this long (the timing oracle's scripted gaps). */
  gapMs?: number;
  /** Answer each client frame by sending it back unchanged, as text or binary as it came, instead of the route's answer. */
  echo?: boolean;
  /** Once this many client frames arrived, the upstream closes with this code and reason. */
  closeAfter?: { frames: number; code: number; reason: string };
  /** Ping the client once the socket is open (the upstream records the pong). */
  ping?: boolean;
  /** Of the subprotocols the client offers, the upstream chooses this one (none chosen when it is not offered). */
  protocol?: string;
  /** Send these frames once the socket is open, before the route's greeting (binary when `binary`). */
  first?: Array<{ data: string; binary?: boolean }>;
}

/** One message on the socket, as one side saw it (fragments joined: a WebSocket message). */
export interface SocketFrame {
  /** `in`: client to upstream (as the upstream got it); `out`: upstream to client (as sent, or as the client got it). */
  dir: 'in' | 'out';
  /** On the upstream's clock (performance.now()). */
  at: number;
  binary: boolean;
  bytes: number;
  /** The frame as UTF-8 text, at most FRAME_KEEP characters of it. */
  text: string;
  /** SHA-256 of the whole frame (hex). */
  sha256: string;
}

export interface SocketClose {
  code: number;
  reason: string;
  at: number;
  /** Which side closed first: the peer (the gateway, for the upstream) or this side. */
  by: 'peer' | 'self';
}

/** An upgrade the upstream received, and what went over its socket. */
export interface RecordedSocket {
  url: string;
  headers: Array<[string, string]>;
  /** The subprotocols offered (Sec-WebSocket-Protocol), and the one chosen. */
  subprotocols: string[];
  protocol: string;
  /** The extensions offered (Sec-WebSocket-Extensions as sent), and those negotiated. */
  offered: string | null;
  extensions: string;
  openedAt: number;
  receivedWall: string;
  frames: SocketFrame[];
  /** When the upstream's ping was answered. */
  pongAt?: number;
  closed?: SocketClose;
  /** The socket ended with a protocol error the upstream's WebSocket reader found (a compressed frame not negotiated, a frame too large). */
  error?: string;
}

/** A request for a socket case that came without the upgrade (the gateway did not carry it). */
export interface PlainArrival {
  method: string;
  url: string;
  headers: Array<[string, string]>;
  at: number;
}

export interface SocketExpectation {
  readonly token: string;
  readonly script: SocketScript;
  readonly sockets: readonly RecordedSocket[];
  readonly plain: readonly PlainArrival[];
  /** The first upgrade or plain request that reached this case, within `graceMs`; null when none did. */
  arrived(graceMs: number): Promise<'socket' | 'plain' | null>;
  /** Waits until the first socket has at least `n` frames `dir`; returns how many it has. */
  frames(dir: SocketFrame['dir'], n: number, graceMs: number): Promise<number>;
  /** How the first socket closed, within `graceMs`; null when it is still open. */
  closed(graceMs: number): Promise<SocketClose | null>;
  /** When the upstream's ping was answered, within `graceMs`. */
  ponged(graceMs: number): Promise<number | null>;
}
