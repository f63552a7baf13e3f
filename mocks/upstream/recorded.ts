// The record the recording upstream keeps of each request (src/upstream/record.ts), made so that
// it costs little to keep: every request's record lives until its case ends, so under load the
// garbage collector copies each one from the young generation and then marks it in the old, and
// what a record holds is what the upstream's latency tail pays for. A small request's bytes (its
// HTTP/1.x header list, node:http's flat name, value, name, value... joined by line feeds, which
// no header name or value holds, then its body) are copied into a shared slab (`Slabs`), and the
// record keeps only where they are: no Buffer, no ArrayBuffer and no string per name and value
// for the collector to copy or track, where a kept Buffer also kept the socket read it was cut
// from. The headers and body are handed out as a fresh list of [name, value] pairs and a view on
// each read (a read is rare). A request that sent nothing has the one shared empty sentAt list
// until the upstream writes to it; the digest of a body kept whole is made when first asked (a
// check comparing by hash), not for every request; no list of long strings is kept for a body
// that has none.
import * as crypto from 'node:crypto';
import type { ApiRouteName, Protocol, RouteKind } from '../../src/core/protocols.js';
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

/** A request's headers and body this large at most go into a slab; a larger body is kept as it came, a larger header list in a Buffer of its own. */
const SLAB_PIECE_MAX = 16 * 1024;
const SLAB_BYTES = 256 * 1024;

/**
 * Slabs the small records' bytes are copied into, one after another. A slab lives while a record
 * in it does; records of one case, and of one stretch of time, end together.
 */
class Slabs {
  private slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
  private used = 0;
  /** Copies `parts` one after another into a slab: the slab and where they begin. */
  put(parts: Array<Buffer | string>, bytes: number): { slab: Buffer; at: number } {
    if (bytes > SLAB_PIECE_MAX) return { slab: Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : p))), at: 0 };
    if (this.used + bytes > this.slab.length) {
      this.slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
      this.used = 0;
    }
    const at = this.used;
    for (const p of parts) this.used += typeof p === 'string' ? this.slab.write(p, this.used, 'latin1') : p.copy(this.slab, this.used);
    return { slab: this.slab, at };
  }
}
const slabs = new Slabs();
const EMPTY = Buffer.alloc(0);

/** A header list as [name, value] pairs: node's flat list paired, pairs (HTTP/2) as they are. */
export function asPairs(h: string[] | Array<[string, string]>): Array<[string, string]> {
  return typeof h[0] === 'string' ? pairsFromRaw(h as string[]) : (h as Array<[string, string]>);
}

/** A flat header list joined by line feeds (node:http's strings are latin1); null for pairs, or a list holding a line feed (kept as pairs). */
function joined(h: string[] | Array<[string, string]>): string | null {
  if (h.length && typeof h[0] !== 'string') return null;
  const flat = h as string[];
  for (const x of flat) if (x.includes('\n')) return null;
  return flat.join('\n');
}

export class Recorded implements RecordedRequest {
  seq: number;
  method: string;
  url: string;
  bodyBytes: number;
  bodyTruncated: boolean;
  receivedAt: number;
  receivedWall: string;
  sentAt: number[] = NOTHING_SENT;
  matchedBy?: 'body' | 'header' | 'url';
  token?: string;
  protocol?: Protocol;
  route?: RouteKind;
  apiRoute?: ApiRouteName;
  routedAs?: Protocol;
  answeredIn?: Protocol;
  framesFrom?: number[];
  closedAt?: number;
  upstream?: 'second';
  idleClose?: RecordedRequest['idleClose'];
  /** The bytes: a slab, where the joined header list begins in it and its length, then the body's length after it (a small body). */
  #slab: Buffer;
  #at: number;
  #headLen: number;
  #bodyLen: number;
  /** A large body, kept as it came; headers kept as pairs (HTTP/2, or a line feed in one). */
  #body: Buffer | undefined;
  #pairs: Array<[string, string]> | undefined;
  #digest: string | undefined;
  #strings: LongString[] | undefined;

  constructor(p: RecordedParts) {
    this.seq = p.seq;
    this.method = p.method;
    this.url = p.url;
    this.bodyBytes = p.bodyBytes;
    this.bodyTruncated = p.bodyTruncated;
    this.receivedAt = p.receivedAt;
    this.receivedWall = p.receivedWall;
    const text = joined(p.headers);
    this.#pairs = text === null ? asPairs(p.headers) : undefined;
    const head = text ?? '';
    const small = head.length + p.body.length <= SLAB_PIECE_MAX;
    this.#body = small ? undefined : p.body;
    const { slab, at } = slabs.put(small ? [head, p.body] : [head], head.length + (small ? p.body.length : 0));
    this.#slab = slab;
    this.#at = at;
    this.#headLen = head.length;
    this.#bodyLen = small ? p.body.length : 0;
    this.#digest = p.bodySha256;
    this.#strings = p.longStrings?.length ? p.longStrings : undefined;
  }

  /** The headers as received, in order, with case and duplicates: a fresh list of pairs on each read. */
  get rawHeaders(): Array<[string, string]> {
    if (this.#pairs) return this.#pairs.slice();
    return this.#headLen ? pairsFromRaw(this.#slab.toString('latin1', this.#at, this.#at + this.#headLen).split('\n')) : [];
  }

  /** The body as kept: a view on the slab (a fresh one on each read), or the large body as it came. */
  get body(): Buffer {
    if (this.#body) return this.#body;
    const from = this.#at + this.#headLen;
    return this.#bodyLen ? this.#slab.subarray(from, from + this.#bodyLen) : EMPTY;
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
