// What one protocol is, as one record (ProtocolRecord), and the protocol-free meaning its
// answers carry (Answer, StreamStep, ErrorMeaning, ListedModel): the recording upstream reads a
// scripted reply of one protocol into that meaning and renders it in the protocol a request
// arrived in (translate.ts), and checks of translated routes compare by it. One file per
// protocol's folder fills the record (<name>/record.ts); registry.ts gathers them in an
// exhaustive Record<Protocol, ...>, and the compiler names every field a new protocol must fill.
import type { Capability } from '../core/capabilities.js';
import type { Framing } from '../core/framing.js';
import type { ApiRouteName, AuthStyle, Protocol, RouteKind } from '../core/protocols.js';
import type { HeaderList, JsonReply, SseFrame } from '../upstream/scenario.js';

export type { ApiRouteName, RouteKind };

/** Why an answer stopped, in words every protocol maps to its own. */
export type StopReason = 'end' | 'max_tokens' | 'tool_use' | 'stop_sequence' | 'refusal' | 'other';

/** Token counts; absent fields are ones the protocol did not state. */
export interface Usage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoning?: number;
}

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as JSON text. */
  args: string;
}

/** A non-streamed answer by meaning. */
export interface Answer {
  model: string;
  text: string;
  thinking?: string;
  toolCalls: ToolCall[];
  stop: StopReason;
  usage: Usage;
}

/** One step of a streamed answer by meaning; a protocol writes each as zero or more frames. */
export type StreamStep =
  | { t: 'start'; model: string; usage?: Usage }
  | { t: 'text'; text: string }
  | { t: 'thinking'; text: string }
  | { t: 'tool'; id: string; name: string }
  | { t: 'args'; json: string }
  | { t: 'stop'; stop: StopReason; usage?: Usage }
  | { t: 'usage'; usage: Usage }
  | { t: 'error'; message: string }
  | { t: 'end' };

/** A frame of SSE comment lines only (`: keep-alive`): no protocol's event, the same in every SSE protocol. */
export const isCommentFrame = (data: string) => /^(:[^\n]*\r?\n)+\r?\n?$/.test(data);

export interface ErrorMeaning {
  status: number;
  message: string;
}

export interface ListedModel {
  id: string;
  displayName: string;
  /** ISO time. */
  created: string;
}

/** A request by meaning: what a translation between protocols must keep. */
export interface RequestMeaning {
  model: string;
  /** The system prompt's text (blocks or messages joined by a new line). */
  system: string;
  /** The turns in order, consecutive turns of one side merged (tool results are the user's side). */
  turns: Array<{ role: 'user' | 'assistant'; text: string }>;
  /** The names of the tool calls in the history, in order. */
  toolCalls: string[];
  /** The names of the tools offered. */
  tools: string[];
  /** The parameters every protocol has. */
  params: { maxTokens?: number; temperature?: number; topP?: number; stop?: string[] };
  stream: boolean;
}

/** A request as the gateway client takes it (without body-independent extras such as the case token). */
export interface MinimalRequest {
  method: 'POST';
  path: string;
  auth: AuthStyle;
  headers: Array<[string, string]>;
  body: string;
}

export interface MinimalRequestOptions {
  /** The one user message. */
  text: string;
  model?: string;
  /** The answer's length limit; messages needs one, the others send none without it. */
  maxTokens?: number;
  stream?: boolean;
}

/** Writes a stream's steps as one protocol's frame texts, one step at a time (it keeps the stream's state). */
export interface StreamWriter {
  write(step: StreamStep): string[];
}

/** Reads one stream's frames into steps, one frame at a time (it keeps the stream's state); null for a frame the protocol does not write. */
export interface StreamReader {
  read(data: string): StreamStep[] | null;
}

/** The upstream's replies of one protocol, written from meaning and read back into it. */
export interface ReplyCodec {
  jsonHeaders: HeaderList;
  sseHeaders: HeaderList;
  /** How its stream's frame texts travel (src/core/framing.ts); SSE when absent. */
  framing?: Framing;
  answer(a: Answer): string;
  readAnswer(body: string): Answer | null;
  /** A new writer for one stream. */
  streamWriter(): StreamWriter;
  /** A new reader for one stream's frames. */
  streamReader(): StreamReader;
  error(e: ErrorMeaning): string;
  /** Headers an error answer carries beside jsonHeaders (the error's type, where a protocol puts it in a header). */
  errorHeaders?(e: ErrorMeaning): HeaderList;
  readError(body: string, status: number): ErrorMeaning | null;
  /** A token count's body; null when the protocol has no count route. */
  count(n: number): string | null;
  readCount(body: string): number | null;
  models(list: ListedModel[]): string;
  readModels(body: string): ListedModel[] | null;
}

/** One route beyond inference: its method, its path (query apart), what else tells it from another protocol's, and a path of it for a request. */
export interface ApiRoute {
  name: ApiRouteName;
  method: 'GET' | 'POST';
  /** The path without its query. */
  path: RegExp;
  /** A query parameter the route's requests carry (Codex's catalog: `client_version`). */
  query?: string;
  /** A header the route's requests carry where another protocol has the same path (the messages files API: `anthropic-version`). */
  header?: string;
  /** A path of the route: `id` where it names one (a response, a batch), the query where it needs one. */
  example(id: string): string;
}

export interface ProtocolRecord {
  name: Protocol;
  /** What the reports call it. */
  title: string;
  /** The credential style the protocol's own clients use. */
  defaultCredential: AuthStyle;
  /** The model the minimal request names. */
  defaultModel: string;
  /** Where a request names its model: the body's `model` field, or the path. */
  modelIn: 'body' | 'path';
  /** The capability-matrix features the protocol offers: the capability checks probe these on it. */
  features: readonly Capability[];
  /**
   * The service profile's variable naming the model to use on it; `optional` where the profile
   * has no checks of the protocol yet (unset, the protocol's default model is used).
   */
  service: { modelEnv: string; optional?: boolean };
  /** The request paths of each route (the model goes in the path where the protocol puts it there); null: no such route. */
  paths: Record<RouteKind, ((model: string) => string) | null>;
  /** Its routes beyond inference (apiRouteOf in index.ts finds a request's); absent: none. */
  apiRoutes?: readonly ApiRoute[];
  /** The route a request path (as sent, prefix removed, query allowed) is of this protocol; null when it is none of this protocol's. */
  routeOf(method: string, path: string, headers: HeaderList): RouteKind | null;
  /** The smallest request: one user message, the protocol's default credential style. */
  minimalRequest(o: MinimalRequestOptions): MinimalRequest;
  /** A request of this protocol by meaning; null when the body is not one. */
  readRequest(path: string, body: string): RequestMeaning | null;
  replies: ReplyCodec;
  /**
   * A stream request the protocol's API answers without SSE framing (native's
   * streamGenerateContent without `?alt=sse`: one JSON array of the stream's payloads, written as
   * they come): the headers and the text that takes each SSE frame's place, in order; null (or
   * absent) where the request gets SSE.
   */
  unframedStream?(path: string, frames: string[]): { headers: HeaderList; texts: string[] } | null;
  /**
   * The protocol's error messages may name the cloud account (an Anthropic model on a cloud
   * provider's API): a gateway that translates to it may pass a generic message in their place,
   * keeping the status and the error's type.
   */
  errorsNameTheAccount?: boolean;
  /**
   * Values a path names that the user sets when aiming a run (Vertex's project and region): the
   * paths are written with `defaults`, and the client puts the run's values in with `fill`.
   */
  placeholders?: { defaults: Readonly<Record<string, string>>; fill(path: string, values: Readonly<Record<string, string>>): string };
}

/** A JSON reply of a protocol: its headers, the status, the body. */
export function jsonReply(codec: ReplyCodec, body: string, status = 200, extra: HeaderList = []): JsonReply {
  return { kind: 'json', status, headers: [...codec.jsonHeaders, ...extra], body };
}

/** Turns in order with consecutive turns of one side merged (their texts joined by a space). */
export function mergedTurns(turns: Array<{ role: 'user' | 'assistant'; text: string }>): RequestMeaning['turns'] {
  const out: RequestMeaning['turns'] = [];
  for (const t of turns) {
    const last = out[out.length - 1];
    if (last && last.role === t.role) last.text = [last.text, t.text].filter(Boolean).join(' ');
    else out.push({ ...t });
  }
  return out;
}

/** Only the parameters that are set. */
export function setParams(p: RequestMeaning['params']): RequestMeaning['params'] {
  return Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) as RequestMeaning['params'];
}

/** Frames from frame texts, `gapMs` apart (the first after `firstGapMs`). */
export function framesOf(texts: string[], opts: { gapMs?: number; firstGapMs?: number } = {}): SseFrame[] {
  return texts.map((data, i) => ({ gapMs: i === 0 ? (opts.firstGapMs ?? 0) : (opts.gapMs ?? 0), data }));
}
