// The transcript digest: SHA-256 over a canonical form of every exchange of a run, both sides
// (what the client sent and got back, what reached the upstream and what it answered), masked,
// without the values that legitimately vary between two runs of the same gateway build: case
// tokens, the credential, ports, dates, generated ids, and headers such as date or request ids.
// A deterministic gateway gives the same digest run after run; a changed answer changes it.
import { createHash } from 'node:crypto';
import { replaceSecrets } from '../../core/mask.js';
import { isSizedBody, type GwRequest, type ReceivedResponse, type SizedBody } from '../../client/gateway.js';
import type { Expectation } from '../../upstream/upstream.js';
import type { Reply } from '../../upstream/scenario.js';
import { CASE_HEADER, TOKEN_LENGTH, TOKEN_RE } from '../../upstream/contract.js';
import { FrameDecoder, isEventStreamType } from '../../core/framing.js';
import { gunzipSync } from 'node:zlib';

/** Headers whose values vary between runs of the same build (or follow from the body). */
const VARYING_HEADERS = new Set([
  'date',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'age',
  'expires',
  'last-modified',
  'etag',
  'x-request-id',
  'request-id',
  'x-amzn-requestid',
  'x-amzn-trace-id',
  'cf-ray',
  'server-timing',
  'traceparent',
  'tracestate',
]);

const MONTHS = 'Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec';
const MASKS: Array<[RegExp, string]> = [
  [TOKEN_RE, 'gwc-<case>'],
  [/\b(127\.0\.0\.1|localhost|0\.0\.0\.0|\[::1\]|\[::\]):\d{1,5}\b/g, '$1:<port>'],
  [/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?/g, '<date>'],
  [new RegExp(`\\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} (${MONTHS}) \\d{4} \\d{2}:\\d{2}:\\d{2} GMT`, 'g'), '<date>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b(msg|req|toolu|srvtoolu|chatcmpl|resp|cmp|rs|call|fc|file|batch)([_-])[A-Za-z0-9_]{8,}/g, '$1$2<id>'],
  // The native replies' responseId: a counter over the run, so it depends on which check asked first.
  [/\bgwcNat\d+AbCdEf\b/g, 'gwcNat<id>'],
  // How a connection to a stopped upstream fails (refused, or reset while the listener closes) is timing.
  [/\bE(CONNREFUSED|CONNRESET|CONNABORTED|PIPE)\b/g, 'E<socket error>'],
];

export interface Masker {
  (text: string): string;
}

/** The masking of a run: the credentials given (in every encoding src/core/mask.ts knows), then the varying values. */
export function masker(secrets: string[]): Masker {
  return (text: string) => {
    let t = replaceSecrets(text, secrets, '<credential>');
    for (const [re, to] of MASKS) t = t.replace(re, to);
    return t;
  };
}

type Headers = Array<[string, string]>;
const headerList = (h: Headers, mask: Masker) => h.filter(([k]) => !VARYING_HEADERS.has(k.toLowerCase())).map(([k, v]) => `${k.toLowerCase()}: ${mask(v)}`);
const bodyText = (b: string | Buffer | undefined, mask: Masker) => (b === undefined ? '' : mask(Buffer.isBuffer(b) ? b.toString('utf8') : b));

/** A body sent gzip-encoded as canonical text: decoded (the case token is inside the compressed bytes), or as sent when it does not decode. */
function sentText(b: string | Buffer | undefined, headers: Headers, mask: Masker): string {
  const gzip = headers.some(([k, v]) => k.toLowerCase() === 'content-encoding' && /gzip/i.test(v));
  if (!gzip || !Buffer.isBuffer(b)) return bodyText(b, mask);
  try {
    return `(gzip) ${bodyText(gunzipSync(b), mask)}`;
  } catch {
    return bodyText(b, mask);
  }
}

/**
 * An answer's body as canonical text. An AWS event stream is read message by message (each
 * message's verdict and its decoded inner text): the case token travels base64-encoded inside
 * it, where the masks of the text form cannot find it.
 */
function answerText(b: string | Buffer | undefined, headers: Headers, mask: Masker): string {
  const type = headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  if (b === undefined || !isEventStreamType(type)) return bodyText(b, mask);
  const d = new FrameDecoder();
  const frames = d.push(Buffer.isBuffer(b) ? b : Buffer.from(b, 'latin1'));
  const lines = frames.map((f) => `${f.ok ? 'message' : `broken message (${f.problem})`} ${f.messageType ?? '-'} ${f.eventType ?? f.exceptionType ?? '-'}: ${f.text}`);
  const end = d.end();
  return mask([...lines, ...(end ? [end] : [])].join('\n'));
}

/** One exchange of a check, canonical: each part as text, and its hash. */
export interface CanonicalExchange {
  kind: 'client' | 'upstream';
  /** A line a person reads to find the exchange ("POST /v1/messages -> 200"). */
  summary: string;
  /** SHA-256 of each part's canonical text: request and response (client), or received and reply (upstream). */
  parts: Record<string, string>;
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * A body made piece by piece while it is sent (the large-body check): its length and the SHA-256
 * of its masked text (the case token replaced), never held whole. The text is hashed up to a cut
 * that no case token straddles, and the rest carried to the next piece.
 */
function sizedText(b: SizedBody, mask: Masker): string {
  const h = createHash('sha256');
  let carry = '';
  for (const c of b.chunks()) {
    const s = carry + c.toString('latin1');
    let cut = Math.max(0, s.length - 2 * TOKEN_LENGTH);
    for (const m of s.matchAll(TOKEN_RE)) if (m.index! < cut && m.index! + m[0].length > cut) cut = m.index!;
    h.update(mask(s.slice(0, cut)), 'latin1');
    carry = s.slice(cut);
  }
  h.update(mask(carry), 'latin1');
  return `(${b.length} bytes, sha256 of the masked text ${h.digest('hex')})`;
}

export function clientExchange(req: GwRequest, res: ReceivedResponse, mask: Masker): CanonicalExchange {
  const method = req.method ?? 'GET';
  const request = [`${method} ${mask(req.path)} auth=${req.auth ?? 'bearer'}`, ...headerList([...(req.headers ?? []), ...(req.caseToken ? [[CASE_HEADER, req.caseToken] as [string, string]] : [])], mask), '', isSizedBody(req.body) ? sizedText(req.body, mask) : sentText(req.body, req.headers ?? [], mask)].join('\n');
  let response: string;
  let outcome: string;
  if (!('status' in res)) {
    response = `error ${res.error}`;
    outcome = res.error;
  } else if (res.aborted) {
    // The client closed the stream itself: how much arrived before depends on timing.
    response = [`${res.status} (closed by the client)`, ...headerList(res.rawHeaders, mask)].join('\n');
    outcome = `${res.status}, closed by the client`;
  } else {
    response = [`${res.status}${res.error ? ` (${res.error})` : ''}`, ...headerList(res.rawHeaders, mask), '', answerText(res.body, res.rawHeaders, mask)].join('\n');
    outcome = String(res.status);
  }
  return { kind: 'client', summary: `${method} ${mask(req.path)} -> ${outcome}`, parts: { request: sha(request), response: sha(response) } };
}

export function upstreamExchange(e: Expectation, mask: Masker): CanonicalExchange {
  const received = e.hits.map((h) => [`${h.method} ${mask(h.url)}`, ...headerList(h.rawHeaders, mask), '', sentText(h.body, h.rawHeaders, mask)].join('\n')).join('\n--\n');
  const r = e.reply;
  const text = (x: Reply): string =>
    x.kind === 'json'
      ? [`json ${x.status}`, ...headerList(x.headers, mask), '', mask(x.body), ...(x.later ?? []).map((l) => `-- later\n${text(l)}`)].join('\n')
      : x.kind === 'sse'
        ? [`sse ${x.status}`, ...headerList(x.headers, mask), '', ...x.frames.map((f) => mask(f.data))].join('\n')
        : x.kind;
  const reply = text(r);
  const first = e.hits[0];
  return {
    kind: 'upstream',
    summary: `upstream ${first ? `${first.method} ${mask(first.url)}` : '(nothing arrived)'}${e.hits.length > 1 ? ` x${e.hits.length}` : ''} -> ${r.kind}${'status' in r ? ` ${r.status}` : ''}`,
    parts: { received: sha(received), reply: sha(reply) },
  };
}

/**
 * A check's exchanges in a fixed order: client exchanges, then upstream cases, each sorted by
 * their content. A check may send requests at once, so arrival order is not the gateway's.
 */
export function ordered(exchanges: CanonicalExchange[]): CanonicalExchange[] {
  const key = (x: CanonicalExchange) => `${x.kind === 'client' ? 0 : 1}\t${x.summary}\t${Object.values(x.parts).join(' ')}`;
  return [...exchanges].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * What a timing check puts in the transcript instead of its exchanges: how many streams it sends
 * depends on the measurement (a second, longer one when the first lies near a bound, or when this
 * process was held while reading it), so two runs of the same gateway may differ in them. Its
 * verdict is compared instead.
 */
export const TIMING_EXCHANGE: CanonicalExchange = {
  kind: 'client',
  summary: 'a timing check: its streams depend on the measurement (a second one when the first is near a bound); its verdict is compared, not its exchanges',
  parts: { request: 'measured', response: 'measured' },
};

/** The exchanges of a run, by check id. */
export type Transcript = Map<string, CanonicalExchange[]>;

/** One line per exchange, in check-id order: what the digest is computed over, and what verify compares. */
export function transcriptLines(t: Transcript): Array<{ check: string; n: number } & CanonicalExchange> {
  const ids = [...t.keys()].sort();
  return ids.flatMap((check) => t.get(check)!.map((x, n) => ({ check, n, ...x })));
}

export function transcriptDigest(t: Transcript): string {
  const h = createHash('sha256');
  for (const l of transcriptLines(t)) h.update(`${l.check}\t${l.n}\t${l.kind}\t${Object.entries(l.parts).map(([k, v]) => `${k}=${v}`).join(' ')}\n`);
  return h.digest('hex');
}

/** The first exchange where two transcripts differ, explained; null when they agree. */
export function firstDifference(
  a: Array<{ check: string; n: number } & CanonicalExchange>,
  b: Array<{ check: string; n: number } & CanonicalExchange>,
): string | null {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (!x) return `exchange ${i + 1}: the re-run has an extra exchange: ${y.check} #${y.n + 1} ${y.summary}`;
    if (!y) return `exchange ${i + 1}: the re-run stopped short; the recorded run had ${x.check} #${x.n + 1} ${x.summary}`;
    if (x.check !== y.check || x.n !== y.n || x.kind !== y.kind) return `exchange ${i + 1}: recorded ${x.check} #${x.n + 1} (${x.kind}) ${x.summary}; re-run ${y.check} #${y.n + 1} (${y.kind}) ${y.summary}`;
    const parts = Object.keys(x.parts).filter((k) => x.parts[k] !== y.parts[k]);
    if (parts.length) return `exchange ${i + 1}: ${x.check} #${x.n + 1} (${x.kind}): the ${parts.join(' and ')} ${parts.length > 1 ? 'differ' : 'differs'}${x.summary !== y.summary ? `: recorded "${x.summary}", re-run "${y.summary}"` : ` (${x.summary})`}`;
  }
  return null;
}
