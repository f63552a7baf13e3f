// The wire between a load run and the `gw-conformance mock` it attaches to: remote.ts on the
// run's side, mocks/upstream/attach.ts on the mock's. The run opens one NDJSON event stream
// (POST ATTACH_PATH) and sends its operations (cases to register, cases ended, a sync) to
// ATTACH_PATH/<session id>. Times cross as the mock's performance.now(); the run's side turns
// them into its own clock with the offset it measured.
import type { RecordedRequest } from './record.js';
import type { Reply } from './scenario.js';
import type { UnmatchedRequest } from './upstream.js';

export const ATTACH_PATH = '/__gwc/attach';

/** A recorded request as it crosses: the body as base64, and the HTTP version the gateway spoke. */
export type WireRecord = Omit<RecordedRequest, 'body'> & { body: string; httpVersion: string };

/** The events of the stream, in the order things happened at the mock. */
export type AttachEvent =
  | { type: 'attached'; id: string; now: number }
  /** A request reached one of the session's cases. */
  | { type: 'hit'; token: string; rec: WireRecord }
  /** What the upstream has written of the answer to request `seq` so far; `closedAt` once its connection closed. */
  | { type: 'sent'; token: string; seq: number; sentAt: number[]; closedAt?: number }
  /** The connection of request `seq` ended its idle spell at `at`, closed or reused (`by`: a reply's closeIdleMs). */
  | { type: 'idle-closed'; token: string; seq: number; at: number; by: NonNullable<RecordedRequest['idleClose']>['by'] }
  | { type: 'unmatched'; request: UnmatchedRequest }
  /** Everything that happened at the mock before the sync `nonce` was asked for is above this line. */
  | { type: 'synced'; nonce: number }
  | { type: 'error'; code: string; message: string };

/** One batch of operations; the answer comes once all are in effect. */
export interface AttachOps {
  expect?: Array<{ token: string; reply: Reply }>;
  release?: string[];
  forwardsUnder?: string[];
  /** Ask for a `synced` event with this nonce on the stream. */
  sync?: number;
  /** The run is done: its cases end, and its stream, before the answer. */
  detach?: boolean;
}

export interface AttachAnswer {
  /** The mock's performance.now() when it answered (the run's side measures the clock offset with it). */
  now: number;
  /** Tokens refused because the mock has handed them out before (the run draws again). */
  taken: string[];
}

/** A shard's registration at the start barrier (POST ATTACH_PATH/<session id>/barrier). */
export interface BarrierRequest {
  /** This shard (i of n) and how many the run declares. */
  index: number;
  count: number;
  /** The shard's harness build and load settings: every shard of one barrier must give the same. */
  key: string;
  /** The most this shard waits for the others. */
  timeoutMs: number;
}

/** The barrier's answer once every shard registered: start at `startAt` (the mock's performance.now()). */
export interface BarrierAnswer {
  now: number;
  startAt: number;
  /** The same start on the mock's wall clock (ms since the epoch), for the reports. */
  startAtWall: number;
  registered: number;
}

export function toWire(rec: RecordedRequest, httpVersion: string): WireRecord {
  // The accessors of a record that keeps less (mocks/upstream/recorded.ts) are read by name: a spread copies own fields only.
  return { ...rec, rawHeaders: rec.rawHeaders, bodySha256: rec.bodySha256, longStrings: rec.longStrings, body: rec.body.toString('base64'), httpVersion };
}

/** A wire record as a recorded request, its times moved onto the run's clock by `shift`. */
export function fromWire(w: WireRecord, shift: (mockTime: number) => number): RecordedRequest {
  const { httpVersion: _v, ...rest } = w;
  return {
    ...rest,
    body: Buffer.from(w.body, 'base64'),
    receivedAt: shift(w.receivedAt),
    sentAt: w.sentAt.map(shift),
    ...(w.closedAt !== undefined ? { closedAt: shift(w.closedAt) } : {}),
  };
}
