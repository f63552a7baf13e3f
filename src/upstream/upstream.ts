// The recording upstream as the runner and the checks see it. mocks/upstream/server.ts
// implements it; src/ never imports the implementation.
import type { RecordedRequest } from './record.js';
import type { Reply } from './scenario.js';
import type { SocketExpectation, SocketScript } from './socket.js';

/** One scripted case: the reply the upstream plays, and what reached it for this case. */
export interface Expectation {
  readonly token: string;
  readonly reply: Reply;
  readonly hits: readonly RecordedRequest[];
  /** The first request that reached the upstream for this case, or null when none came within `graceMs`. */
  received(graceMs?: number): Promise<RecordedRequest | null>;
  /** When the upstream connection of the first request closed, or null if it did not within `graceMs`. */
  closed(graceMs: number): Promise<number | null>;
  /** How the connection of the first request ended its idle spell (a reply's closeIdleMs: RecordedRequest.idleClose), or null if it did not within `graceMs`. */
  idleClosed(graceMs: number): Promise<NonNullable<RecordedRequest['idleClose']> | null>;
  /** Waits until at least `n` requests arrived for this case, bounded by `graceMs`; returns how many did. */
  waitForHits(n: number, graceMs: number): Promise<number>;
}

export interface UnmatchedRequest {
  method: string;
  url: string;
  reason: string;
  receivedWall: string;
}

export interface Upstream {
  /** Base URL the gateway forwards to. */
  readonly url: string;
  /** Requests no case could be tied to, in arrival order. */
  readonly unmatched: UnmatchedRequest[];
  /** Registers the reply for one case (or makes it from the case's token, to carry it back); the returned token ties the forwarded request to it. */
  expect(reply: Reply | ((token: string) => Reply)): Expectation;
  /** Ends a case: a request that still arrives for it is reported as unmatched. */
  release(token: string): void;
  /** Registers a socket case (a WebSocket route's upgrade and frames); absent where the upstream speaks no WebSocket (one in another process). */
  expectSocket?(script: SocketScript): SocketExpectation;
  releaseSocket?(token: string): void;
  /**
   * Paths under which the gateway forwards (a protocol's `upstream-base-path`): the upstream
   * takes a request under one of them as the same request without it, so checks see today's paths.
   */
  forwardsUnder?(prefixes: string[]): void;
  /** Refuses every connection until resume() (connections of a driving `mock` stay up). */
  suspend(): Promise<void>;
  resume(): Promise<void>;
  /**
   * For an upstream in another process (a run attached to `gw-conformance mock`, remote.ts): once
   * it returns, the cases registered before it are in effect there, and what reached it before it
   * is in the cases' hits. Code that sends right after registering, or judges hits right after the
   * answers came, awaits it. Absent when the upstream is in this process.
   */
  sync?(): Promise<void>;
  /** Requests received per HTTP version the gateway spoke ("1.1", "2.0"): the report shows them. */
  readonly httpVersions?: Record<string, number>;
}
