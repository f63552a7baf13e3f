// The record the recording upstream keeps of each request (src/upstream/record.ts), made so that
// it costs little to keep: every request's record lives until its case ends, so under load the
// garbage collector copies each one from the young generation and then marks it in the old, and
// what a record holds is what the upstream's latency tail pays for. It keeps an HTTP/1.x header
// list as one Buffer (node:http's flat list, name, value, name, value..., joined by line feeds,
// which no header name or value holds: one object for the collector to copy instead of one
// string per name and value, its bytes outside the JavaScript heap) and hands out [name, value]
// pairs on each read (a fresh list: a read is rare); a request that sent nothing has the one
// shared empty sentAt list until the upstream writes to it;
// the digest of a body kept whole is made when first asked (a check comparing by hash), not for
// every request; no list of long strings is kept for a body that has none.
import * as crypto from 'node:crypto';
import type { Protocol, RouteKind } from '../../src/core/protocols.js';
import { pairsFromRaw } from '../../src/client/headers.js';
import type { RecordedRequest } from '../../src/upstream/record.js';

type LongString = { length: number; digest: string };

export interface RecordedParts {
  seq: number;
  method: string;
  url: string;
  /** Flat (HTTP/1.x, as node:http gives it) or already paired (HTTP/2, the pseudo-headers turned into Host). */
  headers: string[] | Array<[string, string]>;
  body: Buffer;
  bodyBytes: number;
  /** The digest of a body not kept whole (hashed as it came); absent: made from `body` when asked. */
  bodySha256?: string;
  bodyTruncated: boolean;
  longStrings?: LongString[];
  receivedAt: number;
  receivedWall: string;
}

/** The sentAt of a request nothing was written to yet: shared, frozen (the upstream replaces it, play.ts). */
const NOTHING_SENT: number[] = Object.freeze([]) as unknown as number[];

/** A flat header list as one latin1 Buffer joined by line feeds (node:http's strings are latin1); pairs, or a list holding a line feed, as pairs. */
function packed(h: string[] | Array<[string, string]>): Buffer | Array<[string, string]> {
  if (h.length && typeof h[0] !== 'string') return h as Array<[string, string]>;
  const flat = h as string[];
  for (const x of flat) if (x.includes('\n')) return pairsFromRaw(flat);
  return Buffer.from(flat.join('\n'), 'latin1');
}

export class Recorded implements RecordedRequest {
  seq: number;
  method: string;
  url: string;
  body: Buffer;
  bodyBytes: number;
  bodyTruncated: boolean;
  receivedAt: number;
  receivedWall: string;
  sentAt: number[] = NOTHING_SENT;
  matchedBy?: 'body' | 'header' | 'url';
  token?: string;
  protocol?: Protocol;
  route?: RouteKind;
  routedAs?: Protocol;
  answeredIn?: Protocol;
  framesFrom?: number[];
  closedAt?: number;
  upstream?: 'second';
  #headers: Buffer | Array<[string, string]>;
  idleClose?: RecordedRequest['idleClose'];
  #digest: string | undefined;
  #strings: LongString[] | undefined;

  constructor(p: RecordedParts) {
    this.seq = p.seq;
    this.method = p.method;
    this.url = p.url;
    this.body = p.body;
    this.bodyBytes = p.bodyBytes;
    this.bodyTruncated = p.bodyTruncated;
    this.receivedAt = p.receivedAt;
    this.receivedWall = p.receivedWall;
    this.#headers = packed(p.headers);
    this.#digest = p.bodySha256;
    this.#strings = p.longStrings?.length ? p.longStrings : undefined;
  }

  /** The headers as received, in order, with case and duplicates: a fresh list of pairs on each read. */
  get rawHeaders(): Array<[string, string]> {
    const h = this.#headers;
    if (!Buffer.isBuffer(h)) return h.slice();
    return h.length ? pairsFromRaw(h.toString('latin1').split('\n')) : [];
  }

  get bodySha256(): string {
    return (this.#digest ??= crypto.createHash('sha256').update(this.body).digest('hex'));
  }

  get longStrings(): LongString[] {
    return this.#strings ?? [];
  }

  /** Every field as a plain object (the accessors' values included): what JSON and the attach wire carry. */
  plain(): RecordedRequest {
    const { seq, method, url, rawHeaders, body, bodyBytes, bodySha256, bodyTruncated, longStrings, receivedAt, receivedWall, sentAt } = this;
    const out: RecordedRequest = { seq, method, url, rawHeaders, body, bodyBytes, bodySha256, bodyTruncated, longStrings, receivedAt, receivedWall, sentAt };
    for (const k of ['matchedBy', 'token', 'protocol', 'route', 'routedAs', 'answeredIn', 'framesFrom', 'closedAt', 'idleClose'] as const) if (this[k] !== undefined) (out as unknown as Record<string, unknown>)[k] = this[k];
    return out;
  }

  toJSON(): RecordedRequest {
    return this.plain();
  }
}
