// The reference gateway's declared fallback (XUP-1): a POST for FALLBACK_MODEL that the upstream
// answers with a 5xx goes once more, to the second upstream (the recording upstream's
// SECOND_UPSTREAM_PREFIX, src/core/second-upstream.ts), with that upstream's own credential in
// place of the first one's, and the client gets the second upstream's answer as it came: nothing
// of the first exchange crosses (its credential, its answer's headers, its error). Every other
// request is answered as before: translated (translate/route.ts) or passed through.
import type http from 'node:http';
import { FALLBACK_MODEL, SECOND_UPSTREAM_PREFIX } from '../src/core/second-upstream.js';
import type { Fault, RequestParts } from './faults/types.js';
import { translated, type Answerer } from './translate/route.js';
import { CREDENTIAL_HEADER_NAMES } from '../src/core/protocols.js';

export type { Answerer };

/** The credential the reference holds for the second upstream (the first gets what the client sent). */
export const SECOND_UPSTREAM_KEY = 'sk-gwc-second-upstream-own-key';

/** The request headers that carry a credential, in every style a protocol allows. */
const CREDENTIAL_HEADERS = new Set([...CREDENTIAL_HEADER_NAMES, 'api-key']);
/** Headers of the first answer a leaking fallback does not copy (they describe that answer's own body and connection). */
const FRAMING = new Set(['content-length', 'content-type', 'transfer-encoding', 'connection', 'keep-alive', 'date']);
const MODEL_BYTES = Buffer.from(FALLBACK_MODEL);

/** How the gateway sends a request on and passes an answer through (reference/gateway.ts). */
export interface Routes {
  forward(parts: RequestParts, res: http.ServerResponse, answer?: Answerer): void;
  reply(parts: RequestParts, ur: http.IncomingMessage, res: http.ServerResponse): void;
}

function asksFallback(parts: RequestParts): boolean {
  if (parts.method !== 'POST' || !parts.body.includes(MODEL_BYTES)) return false;
  try {
    return (JSON.parse(parts.body.toString('utf8')) as { model?: unknown }).model === FALLBACK_MODEL;
  } catch {
    return false;
  }
}

/** The request for the second upstream: its path under the prefix, its own credential in the first one's place (a fault keeps the first's). */
function secondRequest(parts: RequestParts, fault?: Fault): RequestParts {
  const own = (name: string, value: string) => (name.toLowerCase() === 'authorization' ? `${/^\S+\s/.exec(value)?.[0] ?? 'Bearer '}${SECOND_UPSTREAM_KEY}` : SECOND_UPSTREAM_KEY);
  const headers = fault?.fallback?.keepCredential ? parts.headers : parts.headers.map(([k, v]): [string, string] => (CREDENTIAL_HEADERS.has(k.toLowerCase()) ? [k, own(k, v)] : [k, v]));
  return { ...parts, path: `${SECOND_UPSTREAM_PREFIX}${fault?.fallback?.keepCredential ? parts.path : ownKeyIn(parts.path)}`, headers };
}

/** A path whose `key` parameter (a credential in the query) is the second upstream's own. */
function ownKeyIn(path: string): string {
  const q = path.indexOf('?');
  if (q < 0) return path;
  const params = new URLSearchParams(path.slice(q + 1));
  if (!params.has('key')) return path;
  params.set('key', SECOND_UPSTREAM_KEY);
  return `${path.slice(0, q)}?${params}`;
}

/** A fault's answer from the second upstream: the first answer's headers go with it (those the second did not send). */
function leaking(first: http.IncomingMessage, second: RequestParts, own: Answerer | undefined, routes: Routes): Answerer {
  return (ur, res) => {
    for (const [k, v] of Object.entries(first.headers)) if (v !== undefined && !FRAMING.has(k) && ur.headers[k] === undefined) res.setHeader(k, v);
    if (own) own(ur, res);
    else routes.reply(second, ur, res);
  };
}

/** The answer handler of a request: translated, falling back, or undefined (passed through). May rewrite `parts` (a translation). */
export function answererOf(parts: RequestParts, fault: Fault | undefined, translating: boolean, routes: Routes): Answerer | undefined {
  // Asked of the client's request: a translation may move the model out of the body (into a Bedrock path).
  const falls = asksFallback(parts);
  const own = translated(parts, fault?.translate ?? (translating ? {} : null));
  if (!falls) return own;
  return (ur, res) => {
    if ((ur.statusCode ?? 502) < 500) return own ? own(ur, res) : routes.reply(parts, ur, res);
    const second = secondRequest(parts, fault);
    const go = () => routes.forward(second, res, fault?.fallback?.leakHeaders ? leaking(ur, second, own, routes) : own);
    if (!fault?.fallback?.reasonHeader) return void (ur.resume(), go());
    // The faulty gateway reads the first answer to quote it.
    const chunks: Buffer[] = [];
    ur.on('data', (c: Buffer) => chunks.push(c));
    ur.on('end', () => {
      second.headers = [...second.headers, ['x-fallback-reason', `upstream answered ${ur.statusCode}: ${Buffer.concat(chunks).toString('utf8').replace(/\s+/g, ' ').slice(0, 500)}`]];
      go();
    });
  };
}
