// The recording upstream answers in the protocol it is addressed in: a reply scripted in one
// protocol is read into its meaning (record.ts) and written in the protocol of the path the
// request arrived on, with the same text (and so the same case token), tool calls, stop reason,
// usage, error status and message, and each stream frame's timing kept. A gateway that
// translates (messages in, chat upstream) then gets an answer it can parse, as from a real
// provider. A reply that cannot be read so (a deliberately malformed body or framing) is null:
// the upstream plays it as scripted.
import type { Protocol, RouteKind } from '../core/protocols.js';
import type { HeaderList, JsonReply, Reply, SseFrame, SseReply } from '../upstream/scenario.js';
import { RECORDS } from './registry.js';
import { isCommentFrame, type Answer, type ReplyCodec, type StreamStep, type Usage } from './record.js';

/** Where the request arrived: the protocol, its route, and whether it asked for a stream. */
export interface Arrival {
  protocol: Protocol;
  route: RouteKind;
  stream: boolean;
}

/** The scripted reply's headers beside the content type and framing: retry guidance, rate limits, request ids travel on. */
function kept(headers: HeaderList): HeaderList {
  return headers.filter(([k]) => !/^(content-type|content-length|transfer-encoding)$/i.test(k));
}

/** The steps of a whole answer, as a stream of it would carry them. */
function stepsOf(a: Answer): StreamStep[] {
  return [
    { t: 'start', model: a.model, usage: { ...a.usage, output: 0 } },
    ...(a.thinking ? [{ t: 'thinking' as const, text: a.thinking }] : []),
    ...(a.text ? [{ t: 'text' as const, text: a.text }] : []),
    ...a.toolCalls.flatMap((c): StreamStep[] => [{ t: 'tool', id: c.id, name: c.name }, { t: 'args', json: c.args }]),
    { t: 'stop', stop: a.stop, usage: a.usage },
    { t: 'end' },
  ];
}

/** The answer a stream's steps add up to. */
function answerOf(steps: StreamStep[]): Answer {
  const a: Answer = { model: '', text: '', toolCalls: [], stop: 'end', usage: { input: 0, output: 0 } };
  const usage = (u?: Usage) => u && (a.usage = { ...a.usage, ...u });
  for (const s of steps) {
    if (s.t === 'start') (a.model = s.model), usage(s.usage);
    else if (s.t === 'text') a.text += s.text;
    else if (s.t === 'thinking') a.thinking = (a.thinking ?? '') + s.text;
    else if (s.t === 'tool') a.toolCalls.push({ id: s.id, name: s.name, args: '' });
    else if (s.t === 'args' && a.toolCalls.length) a.toolCalls[a.toolCalls.length - 1].args += s.json;
    else if (s.t === 'stop') (a.stop = s.stop), usage(s.usage);
    else if (s.t === 'usage') usage(s.usage);
  }
  return a;
}

/** Each scripted frame's steps, with its gap; null when a frame is not the protocol's. */
function readStream(frames: SseFrame[], codec: ReplyCodec): Array<{ gapMs: number; steps: StreamStep[]; comment?: string }> | null {
  const reader = codec.streamReader();
  const out: Array<{ gapMs: number; steps: StreamStep[]; comment?: string }> = [];
  for (const f of frames) {
    if (isCommentFrame(f.data)) {
      out.push({ gapMs: f.gapMs, steps: [], comment: f.data });
      continue;
    }
    const steps = reader.read(f.data);
    if (!steps) return null;
    out.push({ gapMs: f.gapMs, steps });
  }
  return out;
}

/** Frames in the target protocol: a scripted frame's gap goes before the first frame it became (or on to the next one when it became none). */
function writeStream(read: Array<{ gapMs: number; steps: StreamStep[]; comment?: string }>, codec: ReplyCodec): { frames: SseFrame[]; from: number[] } {
  const writer = codec.streamWriter();
  const frames: SseFrame[] = [];
  const from: number[] = [];
  let gap = 0;
  read.forEach((r, i) => {
    gap += r.gapMs;
    for (const data of r.comment !== undefined ? [r.comment] : r.steps.flatMap((s) => writer.write(s))) {
      frames.push({ gapMs: gap, data });
      from.push(i);
      gap = 0;
    }
  });
  return { frames, from };
}

function sse(to: ReplyCodec, status: number, headers: HeaderList, written: { frames: SseFrame[]; from: number[] }, protocol: Protocol): SseReply {
  return { kind: 'sse', protocol, status, headers: [...to.sseHeaders, ...kept(headers)], ...written, ...(to.framing && to.framing !== 'sse' ? { framing: to.framing } : {}) };
}

function json(to: ReplyCodec, status: number, headers: HeaderList, body: string, protocol: Protocol): JsonReply {
  return { kind: 'json', protocol, status, headers: [...to.jsonHeaders, ...kept(headers)], body };
}

/** A JSON reply in the arrival's protocol: an error, a model list, a count, or an answer (streamed where the request asked for a stream). */
function translateJson(reply: JsonReply, from: ReplyCodec, to: ReplyCodec, at: Arrival): Reply | null {
  if (reply.status >= 400) {
    const e = from.readError(reply.body, reply.status);
    return e && json(to, reply.status, [...(to.errorHeaders?.(e) ?? []), ...reply.headers], to.error(e), at.protocol);
  }
  if (at.route === 'models') {
    const list = from.readModels(reply.body);
    return list && json(to, reply.status, reply.headers, to.models(list), at.protocol);
  }
  if (at.route === 'count') {
    const n = from.readCount(reply.body);
    const body = n === null ? null : to.count(n);
    return body === null ? null : json(to, reply.status, reply.headers, body, at.protocol);
  }
  const a = from.readAnswer(reply.body);
  if (!a) return null;
  if (!at.stream) return json(to, reply.status, reply.headers, to.answer(a), at.protocol);
  return sse(to, reply.status, reply.headers, writeStream([{ gapMs: 0, steps: stepsOf(a) }], to), at.protocol);
}

/**
 * The scripted reply as the arrival's protocol writes it, or null when it needs no rendering
 * (same protocol, no protocol of its own, a hang, a reset or an MCP session) or cannot be read into meaning.
 */
export function translateReply(reply: Reply, at: Arrival): Reply | null {
  if (reply.kind === 'hang' || reply.kind === 'reset' || reply.kind === 'mcp' || !reply.protocol || reply.protocol === at.protocol) return null;
  const from = RECORDS[reply.protocol].replies;
  const to = RECORDS[at.protocol].replies;
  if (reply.kind === 'json') return translateJson(reply, from, to, at);
  const read = readStream(reply.frames, from);
  if (!read) return null;
  if (at.stream || reply.status >= 400) return sse(to, reply.status, reply.headers, writeStream(read, to), at.protocol);
  return json(to, reply.status, reply.headers, to.answer(answerOf(read.flatMap((r) => r.steps))), at.protocol);
}

/** A scripted 200 JSON answer of `protocol` as a stream of the same protocol, for a request that asked for one; null when the body is no answer of that protocol. */
export function streamedAnswer(reply: JsonReply, protocol: Protocol): SseReply | null {
  const codec = RECORDS[protocol].replies;
  const a = reply.status < 300 ? codec.readAnswer(reply.body) : null;
  return a && sse(codec, reply.status, reply.headers, writeStream([{ gapMs: 0, steps: stepsOf(a) }], codec), protocol);
}
