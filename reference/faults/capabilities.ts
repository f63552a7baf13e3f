// Faults that take one capability away, for the capability matrix (CAP-1): a gateway that drops
// images from requests of every protocol, one that strips thinking signatures from answers (JSON
// and streamed), and one that refuses images explicitly with a JSON 400 (the feature is then
// "not offered", not broken).
import type http from 'node:http';
import { onStreams, PerFrame } from './streaming.js';
import type { Fault, Json, RequestParts } from './types.js';

const isMessages = (r: RequestParts) => /\/v1\/messages(\?|$)/.test(r.path);
/** The lists that hold a request's content blocks: messages[].content (messages, chat) and contents[].parts (native). */
const blocksOf = (b: Json): Json[][] => [
  ...(Array.isArray(b?.messages) ? b.messages : []).flatMap((m: Json) => (Array.isArray(m?.content) ? [m.content] : [])),
  ...(Array.isArray(b?.contents) ? b.contents : []).flatMap((c: Json) => (Array.isArray(c?.parts) ? [c.parts] : [])),
];
/** An image in any protocol: a messages image block, a chat image_url part, a native inlineData part. */
const isImage = (x: Json) => x?.type === 'image' || x?.type === 'image_url' || (x && typeof x === 'object' && 'inlineData' in x);
const bodyOf = (r: RequestParts): Json => {
  if (r.body.length === 0) return null;
  try {
    return JSON.parse(r.body.toString('utf8'));
  } catch {
    return null;
  }
};
const hasImage = (b: Json) => blocksOf(b).some((c) => c.some(isImage));

/** Removes the signature of thinking blocks and signature_delta events from one SSE frame. */
function unsigned(frame: string): string {
  const m = /^(event: content_block_(?:start|delta)\r?\ndata: )(.*)(\r?\n\r?\n)$/s.exec(frame);
  if (!m) return frame;
  const data = JSON.parse(m[2]);
  if (data?.delta?.type === 'signature_delta') return '';
  if (data?.content_block?.type === 'thinking') delete data.content_block.signature;
  return `${m[1]}${JSON.stringify(data)}${m[3]}`;
}

export const CAPABILITY_FAULTS: Fault[] = [
  {
    name: 'strip-images',
    breaks: ['CAP-1'],
    description: 'drops images from requests of every protocol (a gateway that does not carry images)',
    request(r) {
      const b = bodyOf(r);
      if (!hasImage(b)) return;
      for (const c of blocksOf(b)) c.splice(0, c.length, ...c.filter((x) => !isImage(x)));
      r.body = Buffer.from(JSON.stringify(b));
    },
  },
  {
    name: 'strip-thinking-signatures',
    breaks: ['CAP-1'],
    description: 'removes the signature of thinking blocks from answers, JSON and streamed (signature_delta events dropped)',
    responseJson(body) {
      for (const b of Array.isArray(body?.content) ? body.content : []) if (b?.type === 'thinking') delete b.signature;
      return body;
    },
    stream: onStreams(() => new PerFrame(unsigned)),
  },
  {
    name: 'refuse-images',
    breaks: ['CAP-1'],
    description: 'answers messages requests that carry an image with a JSON 400 (images not offered), without forwarding them',
    intercept(r: RequestParts, res: http.ServerResponse) {
      if (!isMessages(r) || !hasImage(bodyOf(r))) return false;
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'image content is not supported by this gateway' } }));
      return true;
    },
  },
];
