// Faults of the Responses API (OpenAI, POST /v1/responses): how gateways that pass chat
// completions well still break it: a lost query or previous_response_id, a compressed body
// decoded wrongly, lifecycle events dropped or renumbered, a buffered or faked stream, a
// response.failed reshaped as a chat frame, errors in the gateway's own shape, usage details lost.
import { gunzipSync } from 'node:zlib';
import { RECORDS, type StreamStep } from '../../src/protocols/index.js';
import type { Fault, Json, RequestParts } from './types.js';
import { isOn } from './routes.js';
import { FrameData } from './protocols.js';
import { HoldAll, isEventStream, PerFrame } from './streaming.js';

const isResponses = (r: RequestParts) => isOn(r, 'responses', 'generate');
const header = (r: RequestParts, name: string) => r.headers.find(([k]) => k.toLowerCase() === name)?.[1];
const gzipped = (r: RequestParts) => isResponses(r) && /gzip/i.test(header(r, 'content-encoding') ?? '');

function parsed(data: string): Json {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}

/** A stream fault on Responses API event streams only, applying `fn` to each frame's data (null drops the frame). */
function onEvents(fn: (v: Json, data: string) => string | null): Fault['stream'] {
  return (r, _s, h) => (isResponses(r) && isEventStream(h) ? { headers: h, transform: new FrameData((d) => fn(parsed(d), d)) } : null);
}

/** The requests whose `stream: true` the fake-streaming fault took out. */
const faked = new WeakSet<RequestParts>();

/** A whole response replayed as the events of a stream, all at once (what a fake-streaming gateway sends). */
function replayAsEvents(body: string): string {
  const codec = RECORDS.responses.replies;
  const a = codec.readAnswer(body);
  if (!a) return body;
  const steps: StreamStep[] = [{ t: 'start', model: a.model }, { t: 'text', text: a.text }, ...a.toolCalls.flatMap((c): StreamStep[] => [{ t: 'tool', id: c.id, name: c.name }, { t: 'args', json: c.args }]), { t: 'stop', stop: a.stop, usage: a.usage }, { t: 'end' }];
  const w = codec.streamWriter();
  return steps.flatMap((s) => w.write(s)).join('');
}

const dropDetails = (u: Json) => {
  if (u && typeof u === 'object') {
    delete u.input_tokens_details;
    delete u.output_tokens_details;
  }
};

export const RESPONSES_FAULTS: Fault[] = [
  {
    name: 'resp-drop-query',
    breaks: ['RESP-PATH-1'],
    description: 'forwards /v1/responses without its query string (a route table that matches the path and rebuilds the URL from it)',
    request: (r) => {
      if (isResponses(r)) r.path = r.path.split('?')[0];
    },
  },
  {
    name: 'resp-drop-previous-response-id',
    breaks: ['RESP-BODY-1'],
    description: 'drops previous_response_id from Responses API bodies (a gateway that keeps conversations itself and strips the upstream\'s state)',
    request: (r) => {
      if (!isResponses(r) || gzipped(r)) return;
      const b = parsed(r.body.toString('utf8'));
      if (!b || typeof b !== 'object' || !('previous_response_id' in b)) return;
      delete b.previous_response_id;
      r.body = Buffer.from(JSON.stringify(b));
    },
  },
  {
    name: 'resp-gzip-read-as-text',
    breaks: ['RESP-BODY-2'],
    description: 'reads a gzip request body as UTF-8 text and forwards that text, content-encoding: gzip kept (the compressed bytes come out mangled)',
    request: (r) => {
      if (gzipped(r)) r.body = Buffer.from(r.body.toString('utf8'));
    },
  },
  {
    name: 'resp-gzip-decoded-header-kept',
    breaks: ['RESP-BODY-2'],
    description: 'decompresses a gzip request body and forwards the JSON with content-encoding: gzip still set',
    request: (r) => {
      if (gzipped(r)) r.body = gunzipSync(r.body);
    },
  },
  {
    name: 'resp-drop-lifecycle-events',
    breaks: ['RESP-SSE-1'],
    description: 'drops response.in_progress and response.content_part.added events (a stream parser that forwards only the events it uses)',
    stream: onEvents((v, d) => (v?.type === 'response.in_progress' || v?.type === 'response.content_part.added' ? null : d)),
  },
  {
    name: 'resp-renumber-sequence',
    breaks: ['RESP-SSE-1'],
    description: 'restamps sequence_number with its own counter starting at 1',
    stream: (r, status, h) => {
      let n = 0;
      return onEvents((v, d) => (v && typeof v.sequence_number === 'number' ? JSON.stringify({ ...v, sequence_number: ++n }) : d))!(r, status, h);
    },
  },
  {
    name: 'resp-buffer-stream',
    breaks: ['RESP-SSE-2'],
    description: 'holds Responses API event streams until the upstream ends them (other streams pass unbuffered)',
    stream: (r, _s, h) => (isResponses(r) && isEventStream(h) ? { headers: h, transform: new HoldAll() } : null),
  },
  {
    name: 'resp-failed-as-chat-error',
    breaks: ['RESP-SSE-3'],
    description: 'rewrites a response.failed event as a chat-completions error frame (data: {"error": ...}, no event name)',
    stream: (r, _s, h) =>
      isResponses(r) && isEventStream(h)
        ? {
            headers: h,
            transform: new PerFrame((frame) => {
              const v = parsed(/^data: ?(.*)$/m.exec(frame)?.[1] ?? '');
              if (v?.type !== 'response.failed') return frame;
              const e = v.response?.error ?? {};
              return `data: ${JSON.stringify({ error: { message: e.message ?? 'stream failed', type: 'server_error', param: null, code: e.code ?? null } })}\n\n`;
            }),
          }
        : null,
  },
  {
    name: 'resp-fake-streaming',
    breaks: ['RESP-SSE-4'],
    description: 'forwards "stream": true as "stream": false and replays the whole answer as events once it has it (fake streaming)',
    request: (r) => {
      if (!isResponses(r) || gzipped(r)) return;
      const b = parsed(r.body.toString('utf8'));
      if (b?.stream !== true) return;
      b.stream = false;
      r.body = Buffer.from(JSON.stringify(b));
      faked.add(r);
    },
    responseWhen: (r) => faked.has(r),
    response: (status, headers, body) => {
      if (status !== 200) return null;
      const json = /json/i.test(String(headers['content-type'] ?? ''));
      return { status, headers: { 'content-type': 'text/event-stream; charset=utf-8' }, body: Buffer.from(json ? replayAsEvents(body.toString('utf8')) : body) };
    },
  },
  {
    name: 'resp-errors-reshaped',
    breaks: ['RESP-ERR-1'],
    description: 'answers an upstream error on /v1/responses in the gateway\'s own shape ({"type": "error", "error": {"type", "message"}}), the status kept',
    responseWhen: (r, status) => isResponses(r) && (status ?? 0) >= 400,
    response: (status, _h, body) => {
      const e = parsed(body.toString('utf8'))?.error ?? {};
      return { status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ type: 'error', error: { type: e.type ?? 'api_error', message: e.message ?? 'upstream error' } })) };
    },
  },
  {
    name: 'resp-drop-usage-details',
    breaks: ['RESP-USAGE-1'],
    description: 'drops input_tokens_details and output_tokens_details from usage, in JSON answers and in response.completed (a usage model with the three counts only)',
    responseWhen: (r, status) => isResponses(r) && status === 200 && parsed(r.body.toString('utf8'))?.stream !== true,
    response: (status, headers, body) => {
      if (!/json/i.test(String(headers['content-type'] ?? ''))) return null;
      const v = parsed(body.toString('utf8'));
      if (!v?.usage) return null;
      dropDetails(v.usage);
      return { status, headers: { 'content-type': String(headers['content-type']) }, body: Buffer.from(JSON.stringify(v, null, 2)) };
    },
    stream: onEvents((v, d) => {
      if (v?.type !== 'response.completed') return d;
      dropDetails(v.response?.usage);
      return JSON.stringify(v);
    }),
  },
  {
    name: 'resp-drop-function-items',
    breaks: ['CAP-1'],
    description: 'drops function_call and function_call_output items from a Responses API input (a gateway that maps input items to chat messages and knows only messages)',
    request: (r) => {
      if (!isResponses(r) || gzipped(r)) return;
      const b = parsed(r.body.toString('utf8'));
      if (!Array.isArray(b?.input) || !b.input.some((i: Json) => /^function_call/.test(String(i?.type)))) return;
      b.input = b.input.filter((i: Json) => !/^function_call/.test(String(i?.type)));
      r.body = Buffer.from(JSON.stringify(b));
    },
  },
];
