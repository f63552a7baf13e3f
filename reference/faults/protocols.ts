// Faults of the native (Gemini) and chat-completions protocols: the ways gateways that handle
// the messages protocol well still break the other two.
import type { Fault, Json, RequestParts } from './types.js';
import { isOn } from './routes.js';
import { frameDataOf, isEventStream, PerFrame } from './streaming.js';

const isNative = (r: RequestParts) => isOn(r, 'native', 'generate', 'stream');
const isChat = (r: RequestParts) => isOn(r, 'chat', 'generate');
/** A chat request asking for a stream (`"stream": true` in its body). */
const wantsStream = (r: RequestParts) => {
  try {
    return JSON.parse(r.body.toString('utf8'))?.stream === true;
  } catch {
    return false;
  }
};

/**
 * Applies `fn` to the data of each complete SSE frame (text up to a blank line) as it streams
 * through: a string replaces the data, null drops the frame.
 */
export class FrameData extends PerFrame {
  constructor(fn: (data: string) => string | null) {
    super((frame) => {
      const data = frameDataOf(frame);
      if (data === undefined) return frame;
      const next = fn(data);
      return next === null ? '' : frame.replace(/^(data: ?)[^\r\n]*/m, (_, p: string) => `${p}${next}`);
    });
  }
}

const hasNoChoices = (data: string) => {
  try {
    const v = JSON.parse(data);
    return Array.isArray(v?.choices) && v.choices.length === 0;
  } catch {
    return false;
  }
};

const hasText = (c: Json) => Array.isArray(c?.content?.parts) && c.content.parts.some((p: Json) => typeof p?.text === 'string' && p.text.length > 0);

/** What a gateway that "repairs" empty answers does: a blocked candidate becomes an empty STOP. */
function unblock(v: Json): Json {
  if (!v || typeof v !== 'object') return v;
  const blocked = Array.isArray(v.candidates) && v.candidates.some((c: Json) => !hasText(c) && c?.finishReason && c.finishReason !== 'STOP');
  if (!blocked && !v.promptFeedback?.blockReason) return v;
  const out: Json = { ...v, candidates: [{ content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'STOP', index: 0 }] };
  delete out.promptFeedback;
  return out;
}

function keepFields(o: Json, known: Set<string>) {
  if (o && typeof o === 'object' && !Array.isArray(o)) for (const k of Object.keys(o)) if (!known.has(k)) delete o[k];
}

// Fields a typed proxy knows (a schema written from the docs of one day); everything else is dropped.
const NATIVE_TOP = new Set(['contents', 'systemInstruction', 'generationConfig', 'safetySettings', 'tools', 'toolConfig']);
const NATIVE_CONFIG = new Set(['temperature', 'topP', 'topK', 'maxOutputTokens', 'stopSequences', 'candidateCount']);
const CHAT_TOP = new Set(['model', 'messages', 'stream', 'stream_options', 'temperature', 'top_p', 'max_tokens', 'n', 'stop', 'tools', 'tool_choice', 'user']);
const CHAT_MESSAGE = new Set(['role', 'content', 'name', 'tool_calls', 'tool_call_id']);

/** Applies `fn` to the parsed JSON body of matching requests and re-serialises it. */
function rewriteBody(match: (r: RequestParts) => boolean, fn: (b: Json) => void) {
  return (r: RequestParts) => {
    if (!match(r) || r.body.length === 0) return;
    const b = JSON.parse(r.body.toString('utf8'));
    fn(b);
    r.body = Buffer.from(JSON.stringify(b));
  };
}

export const PROTOCOL_FAULTS: Fault[] = [
  {
    name: 'encode-native-colon',
    breaks: ['NAT-PATH-1'],
    description: 'percent-encodes the ":" of /v1beta/models/{model}:generateContent as %3A (a path-segment encoder)',
    request: (r) => {
      if (isNative(r)) r.path = r.path.replace(/^(\/v1beta\/models\/[^/?:]+):/, '$1%3A');
    },
  },
  {
    name: 'native-body-to-chat',
    breaks: ['NAT-X-1'],
    description: 'routes native requests to /v1/chat/completions with their native body (a gateway that knows one "compatible" route)',
    request: (r) => {
      if (isNative(r)) r.path = `/v1/chat/completions${r.path.includes('?') ? r.path.slice(r.path.indexOf('?')) : ''}`;
    },
  },
  {
    name: 'drop-usage-chunk',
    breaks: ['CHAT-SSE-1'],
    description: 'drops chat stream chunks whose choices is empty (the usage chunk)',
    stream: (r, _s, h) => (isChat(r) && isEventStream(h) ? { headers: h, transform: new FrameData((d) => (hasNoChoices(d) ? null : d)) } : null),
  },
  {
    name: 'drop-done',
    breaks: ['CHAT-SSE-1'],
    description: 'drops the data: [DONE] terminator of chat streams',
    stream: (r, _s, h) => (isChat(r) && isEventStream(h) ? { headers: h, transform: new FrameData((d) => (d.trim() === '[DONE]' ? null : d)) } : null),
  },
  {
    name: 'blocked-as-empty-success',
    breaks: ['NAT-RESP-1'],
    description: 'turns a native answer with no text (a blocked candidate, or promptFeedback.blockReason) into an empty STOP candidate, in JSON answers and streamed frames',
    responseWhen: (r) => isNative(r) && !r.path.includes(':streamGenerateContent'),
    response: (status, headers, body) => {
      if (status !== 200 || !/json/i.test(String(headers['content-type'] ?? ''))) return null;
      const v = JSON.parse(body.toString('utf8'));
      return { status, headers: { 'content-type': String(headers['content-type']) }, body: Buffer.from(JSON.stringify(unblock(v), null, 2)) };
    },
    stream: (r, _s, h) =>
      isNative(r) && isEventStream(h)
        ? {
            headers: h,
            transform: new FrameData((d) => {
              try {
                const v = JSON.parse(d);
                const u = unblock(v);
                return u === v ? d : JSON.stringify(u);
              } catch {
                return d;
              }
            }),
          }
        : null,
  },
  {
    name: 'chat-401-as-500',
    breaks: ['ERR-AUTH-1', 'ERR-PASS-1'],
    description: "answers 500 server_error when the chat upstream rejects the key with 401 (a gateway that maps every upstream auth failure to its own error)",
    responseWhen: (r) => isChat(r) && !wantsStream(r),
    response: (status) =>
      status === 401
        ? { status: 500, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ error: { message: 'Internal server error: upstream authentication failed', type: 'server_error', param: null, code: null } })) }
        : null,
  },
  {
    name: 'drop-goog-api-key',
    breaks: ['NAT-AUTH-1', 'AUTH-UP-1'],
    description: 'forwards native requests without their credential (strips x-goog-api-key and the ?key= query)',
    request: (r) => {
      if (!isNative(r)) return;
      r.headers = r.headers.filter(([k]) => k.toLowerCase() !== 'x-goog-api-key');
      r.path = r.path.replace(/([?&])key=[^&]*(&|$)/, (_, pre: string, post: string) => (post ? pre : '')).replace(/\?$/, '');
    },
  },
  {
    name: 'native-drop-unknown-fields',
    breaks: ['NAT-BODY-1'],
    description: 'drops native body fields it does not know, at the top level and in generationConfig (a typed proxy)',
    request: rewriteBody(isNative, (b) => {
      keepFields(b, NATIVE_TOP);
      keepFields(b.generationConfig, NATIVE_CONFIG);
    }),
  },
  {
    name: 'chat-drop-unknown-fields',
    breaks: ['CHAT-BODY-1'],
    description: 'drops chat body fields it does not know, at the top level and in messages (a typed proxy)',
    request: rewriteBody(isChat, (b) => {
      keepFields(b, CHAT_TOP);
      if (Array.isArray(b.messages)) for (const m of b.messages) keepFields(m, CHAT_MESSAGE);
    }),
  },
  {
    name: 'chat-trim-content',
    breaks: ['CHAT-BODY-1'],
    description: 'trims leading and trailing whitespace of choices[].message.content in chat completions',
    responseWhen: (r) => isChat(r) && !wantsStream(r),
    response: (status, headers, body) => {
      if (status !== 200 || !/json/i.test(String(headers['content-type'] ?? ''))) return null;
      const v = JSON.parse(body.toString('utf8'));
      for (const c of Array.isArray(v?.choices) ? v.choices : []) if (typeof c?.message?.content === 'string') c.message.content = c.message.content.trim();
      return { status, headers: { 'content-type': String(headers['content-type']) }, body: Buffer.from(JSON.stringify(v)) };
    },
  },
];
