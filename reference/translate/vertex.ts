// The reference gateway's translating route to Vertex AI (messages in, Anthropic's rawPredict
// upstream): the request is rewritten with the model in the path (`:streamRawPredict` for a
// stream), the body without `model` and with Vertex's `anthropic_version`, a bearer credential,
// and the client's betas kept in the `anthropic-beta` header, which rawPredict reads. The answer
// is the messages protocol's already: a JSON answer or a stream goes to the client as it came,
// an error (the messages shape, or Google's `{"error":{"code","message","status"}}`) as a
// messages error with its status. Its own code, as request.ts says: not the harness's records.
// A fault may strip every beta on the way.
import type http from 'node:http';
import type { Json, RequestParts, TranslateFault } from '../faults/types.js';
import { ERROR_TYPE } from './answer.js';
import { kept } from './reply.js';
import { chatHeaders } from './request.js';

/** The body field rawPredict wants in place of the model. */
const VERTEX_VERSION = 'vertex-2023-10-16';
/** The project and region the route is configured with. */
const BASE = '/v1/projects/gwc-translate/locations/us-east5/publishers/anthropic/models';

/** Rewrites `parts` (a messages request with its parsed body) in place as a rawPredict request. */
export function toVertex(parts: RequestParts, messages: Json, fault: TranslateFault): void {
  const betas = parts.headers.filter(([k]) => k.toLowerCase() === 'anthropic-beta').flatMap(([, v]) => v.split(',').map((b) => b.trim()).filter(Boolean));
  const stream = messages?.stream === true;
  parts.path = `${BASE}/${String(messages?.model ?? '')}:${stream ? 'streamRawPredict' : 'rawPredict'}`;
  const body: Json = { anthropic_version: VERTEX_VERSION };
  for (const [k, v] of Object.entries(messages as Record<string, unknown>)) if (k !== 'model') body[k] = v;
  parts.headers = [...chatHeaders(parts.headers), ...(betas.length && !fault.dropBetas ? [['anthropic-beta', betas.join(',')] as [string, string]] : [])];
  parts.body = Buffer.from(JSON.stringify(body));
}

/** A Vertex error (the messages shape, Google's, or any text) as a messages error, the status kept. */
function vertexError(status: number, text: string): string {
  let message = text.slice(0, 2000);
  try {
    const e = JSON.parse(text)?.error;
    if (typeof e?.message === 'string') message = e.message;
  } catch {
    /* not JSON: its text is the message */
  }
  return JSON.stringify({ type: 'error', error: { type: ERROR_TYPE[status] ?? 'api_error', message } });
}

/** Writes the client's answer from Vertex's: a success as it came (JSON or SSE), an error mapped. */
export function vertexAnswer(ur: http.IncomingMessage, res: http.ServerResponse): void {
  const status = ur.statusCode ?? 502;
  const type = String(ur.headers['content-type'] ?? 'application/json');
  if (status < 400) {
    res.writeHead(status, [...kept(ur.rawHeaders), 'content-type', type]);
    res.flushHeaders();
    ur.on('data', (c: Buffer) => res.write(c));
    ur.on('end', () => res.end());
    // A stream the upstream breaks off is broken off for the client too.
    ur.on('close', () => !ur.complete && res.destroy());
    ur.on('error', () => res.destroy());
    return;
  }
  const chunks: Buffer[] = [];
  ur.on('data', (c: Buffer) => chunks.push(c));
  ur.on('end', () => {
    const body = vertexError(status, Buffer.concat(chunks).toString('utf8'));
    res.writeHead(status, [...kept(ur.rawHeaders), 'content-type', 'application/json', 'content-length', String(Buffer.byteLength(body))]);
    res.end(body);
  });
  ur.on('error', () => res.destroy());
}
