// Faults that take one capability away, for the capability matrix (CAP-1): a gateway that drops
// images from requests of every protocol, one that strips thinking signatures from answers (JSON
// and streamed), and one that refuses images explicitly with a JSON 400 (the feature is then
// "not offered", not broken); streams of server tools whose block starts a gateway does not know
// are dropped (CAP-2: a server_tool_use start, whose deltas still go on; a tool result's start);
// deferred tools dropped while tool_choice names one of them (CAP-3).
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

/** A stream fault that drops each content_block_start whose block `drop` picks (its deltas and stop go on). */
function dropStarts(drop: (block: Json) => boolean) {
  return onStreams(
    () =>
      new PerFrame((frame) => {
        const m = /^event: content_block_start\r?\ndata: (.*)\r?\n\r?\n$/s.exec(frame);
        return m && drop(JSON.parse(m[1])?.content_block) ? '' : frame;
      }),
  );
}

/** A request whose tool_choice names a deferred tool (`defer_loading: true`). */
const choosesDeferred = (b: Json) => Array.isArray(b?.tools) && b.tools.some((t: Json) => t?.defer_loading === true && t.name === b?.tool_choice?.name);

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
    name: 'drop-server-tool-starts',
    breaks: ['CAP-2'],
    description: "drops the content_block_start of server_tool_use blocks from streams (a parser that knows text, tool_use and thinking only), their input_json_delta events still forwarded",
    stream: dropStarts((b) => b?.type === 'server_tool_use'),
  },
  {
    name: 'drop-tool-result-starts',
    breaks: ['CAP-2'],
    description: 'drops the content_block_start of server tool result blocks (web_fetch_tool_result, bash_code_execution_tool_result, advisor_tool_result, ...) from streams, their content_block_stop still forwarded',
    stream: dropStarts((b) => typeof b?.type === 'string' && b.type.endsWith('_tool_result')),
  },
  {
    name: 'drop-deferred-tools',
    breaks: ['CAP-3'],
    description: 'drops the deferred tools (defer_loading: true) of a request whose tool_choice names one of them, tool_choice kept',
    request(r) {
      const b = bodyOf(r);
      if (!choosesDeferred(b)) return;
      b.tools = b.tools.filter((t: Json) => t?.defer_loading !== true);
      r.body = Buffer.from(JSON.stringify(b));
    },
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
