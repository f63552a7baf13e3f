// Capture mode of the recording upstream (`gw-conformance mock --capture FILE`): a real client
// (Claude Code, Gemini CLI) talks to it through a gateway, with no case token. Every request is written to
// FILE as one JSON line (credential headers masked), and the requests no check expects are
// answered as the real API would, with the realistic builders of this folder, so the client
// runs its normal course and what it sends can be compared with what the suites model.
import { appendFileSync } from 'node:fs';
import type http from 'node:http';
import { performance } from 'node:perf_hooks';
import { maskCut, maskHeaders, maskUrl } from '../../src/core/mask.js';
import { HarnessError } from '../../src/core/errors.js';
import type { RecordedRequest } from '../../src/upstream/record.js';
import { JSON_HEADERS, SSE_HEADERS, type Reply } from '../../src/upstream/scenario.js';
import { errorBody, messageBody, frames, messageStream, countTokensBody, MODELS, modelListBody, type ListedModel } from '../../src/protocols/messages/index.js';
import { play } from './play.js';
import { RECORDS, routeOfRequest, type Answer } from '../../src/protocols/index.js';

/**
 * The capture mode's model list: the real API's list plus ids a multi-provider gateway lists
 * (another vendor's model, a cloud-prefixed Claude id, an upper-case id), so a client's filter
 * of the list can be seen in what it keeps.
 */
export const CAPTURE_MODELS: ListedModel[] = [
  ...MODELS,
  { type: 'model', id: 'gpt-4o-2024-08-06', display_name: 'GPT-4o', created_at: '2024-08-06T00:00:00Z' },
  { type: 'model', id: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', display_name: 'Claude Sonnet 4.5 (cloud profile)', created_at: '2025-09-29T00:00:00Z' },
  { type: 'model', id: 'Claude-Gateway-Alias', display_name: 'Gateway alias', created_at: '2025-01-01T00:00:00Z' },
];

/** The text of every answer the capture mode gives to a messages request. */
export const CAPTURE_REPLY_TEXT = 'Hello from the gw-conformance capture upstream.';

export interface CaptureOptions {
  /** JSON-lines file every request is appended to. */
  file: string;
  /**
   * Answer the requests to these paths (query excluded) this many ms after they arrive, e.g.
   * `/v1/models` to watch a client's discovery time-out.
   */
  delays?: Record<string, number>;
}

/** One line of the capture file. */
export interface CapturedRequest {
  seq: number;
  receivedWall: string;
  method: string;
  url: string;
  /** Raw headers in arrival order; credential values masked. */
  headers: Array<[string, string]>;
  bodyBytes: number;
  /** The body, parsed, when it is JSON. */
  json?: unknown;
  /** The body as text when it is not JSON (first 4 KiB). */
  text?: string;
  /** Status of the answer, or null for a request the capture mode did not answer (a check's case). */
  status: number | null;
  /** How the exchange ended: the answer written in full, or the client closing first. */
  ended: 'answered' | 'client-closed' | 'check-case';
  /** From the request's arrival to the close of its response, in ms. */
  durationMs: number;
}

function parseJson(body: Buffer): { json?: unknown; text?: string } {
  if (!body.length) return {};
  const text = body.toString('utf8');
  try {
    return { json: JSON.parse(text) };
  } catch {
    return { text: maskCut(text, 4096) };
  }
}

const pathOf = (url: string) => url.split('?')[0];

/** The answer the real API would give, for the requests a client sends on its own. */
export function realisticReply(rec: RecordedRequest, json: unknown): Reply {
  const path = pathOf(rec.url);
  const body = json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  const model = typeof body.model === 'string' ? body.model : undefined;
  if (rec.method === 'HEAD') return { kind: 'json', status: 200, headers: [], body: '' };
  if (rec.method === 'GET' && path === '/v1/models') return { kind: 'json', status: 200, headers: JSON_HEADERS, body: modelListBody(CAPTURE_MODELS) };
  if (rec.method === 'POST' && path === '/v1/messages/count_tokens') return { kind: 'json', status: 200, headers: JSON_HEADERS, body: countTokensBody(Math.max(1, Math.ceil(rec.body.length / 4))) };
  if (rec.method === 'POST' && path === '/v1/messages') {
    // A plain text answer: no tool call, so a client in print mode ends its turn.
    if (body.stream === true) return { kind: 'sse', status: 200, headers: SSE_HEADERS, frames: frames(messageStream({ full: false, textDeltas: 1, deltaChars: 0, model }).map(plainText)) };
    return { kind: 'json', status: 200, headers: JSON_HEADERS, body: messageBody({ model, text: CAPTURE_REPLY_TEXT }) };
  }
  return recordReply(rec) ?? { kind: 'json', status: 404, headers: JSON_HEADERS, body: errorBody(404, `gw-conformance capture upstream: no route for ${rec.method} ${path}`) };
}

/**
 * The other protocols' answers, written by their records (src/protocols/): the capture text as a
 * JSON answer or a stream (framed as the request asked: native without alt=sse gets one JSON
 * array), a token count, the model list; null for a path of no protocol.
 */
function recordReply(rec: RecordedRequest): Reply | null {
  const at = routeOfRequest(rec.method, rec.url, rec.rawHeaders);
  if (!at) return null;
  const codec = RECORDS[at.protocol].replies;
  const json = (body: string): Reply => ({ kind: 'json', protocol: at.protocol, status: 200, headers: codec.jsonHeaders, body });
  if (at.route === 'models') return json(codec.models(CAPTURE_MODELS.map((m) => ({ id: m.id, displayName: m.display_name, created: m.created_at }))));
  if (at.route === 'count') return json(codec.count(Math.max(1, Math.ceil(rec.body.length / 4))) ?? '{}');
  const meaning = RECORDS[at.protocol].readRequest(rec.url, rec.body.toString('utf8'));
  const answer: Answer = { model: meaning?.model || 'gwc-capture-model', text: CAPTURE_REPLY_TEXT, toolCalls: [], stop: 'end', usage: { input: Math.max(1, Math.ceil(rec.body.length / 4)), output: 9 } };
  if (at.route === 'generate' && !meaning?.stream) return json(codec.answer(answer));
  const writer = codec.streamWriter();
  const steps = [{ t: 'start', model: answer.model, usage: { ...answer.usage, output: 0 } }, { t: 'text', text: answer.text }, { t: 'stop', stop: 'end', usage: answer.usage }, { t: 'end' }] as const;
  const texts = steps.flatMap((st) => writer.write(st));
  const plain = RECORDS[at.protocol].unframedStream?.(rec.url, texts);
  if (plain) return { kind: 'sse', protocol: at.protocol, status: 200, headers: plain.headers, frames: plain.texts.map((data) => ({ gapMs: 0, data })) };
  return { kind: 'sse', protocol: at.protocol, status: 200, headers: codec.sseHeaders, frames: texts.map((data) => ({ gapMs: 0, data })) };
}

/** Puts the capture text in the stream's one text delta. */
function plainText(e: { event: string; data: string }) {
  if (e.event !== 'content_block_delta') return e;
  const d = JSON.parse(e.data) as { delta: { text?: string } };
  d.delta.text = CAPTURE_REPLY_TEXT;
  return { event: e.event, data: JSON.stringify(d) };
}

/** Parses `--capture-delay PATH=MS` values. */
export function parseDelays(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) {
    const m = /^(\/[^=?\s]*)=(\d+)$/.exec(v);
    if (!m) throw new HarnessError('BAD_FLAG', `--capture-delay: expected PATH=MS such as /v1/models=10000, got "${v}"`);
    out[m[1]] = Number(m[2]);
  }
  return out;
}

/** The recording upstream's capture hook: records every request, answers the ones no check expects. */
export class Capture {
  constructor(private readonly opts: CaptureOptions) {}

  /** A capture writing to `opts.file`; refuses a file it cannot append to. */
  static open(opts: CaptureOptions): Capture {
    try {
      appendFileSync(opts.file, '');
    } catch (e) {
      throw new HarnessError('BAD_FLAG', `--capture: cannot write ${opts.file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    return new Capture(opts);
  }

  /** Called for every request; writes its line when its response closes. */
  record(rec: RecordedRequest, res: http.ServerResponse): void {
    const parsed = parseJson(rec.body);
    res.on('close', () => {
      const line: CapturedRequest = {
        seq: rec.seq,
        receivedWall: rec.receivedWall,
        method: rec.method,
        url: maskUrl(rec.url),
        headers: maskHeaders(rec.rawHeaders),
        bodyBytes: rec.body.length,
        ...parsed,
        status: rec.token ? null : res.headersSent ? res.statusCode : null,
        ended: rec.token ? 'check-case' : res.writableFinished ? 'answered' : 'client-closed',
        durationMs: Math.round(performance.now() - rec.receivedAt),
      };
      appendFileSync(this.opts.file, `${JSON.stringify(line)}\n`);
    });
  }

  /** Answers a request no check expects, as the real API would. */
  answer(rec: RecordedRequest, res: http.ServerResponse): void {
    const { json } = parseJson(rec.body);
    const reply = realisticReply(rec, json);
    const delay = this.opts.delays?.[pathOf(rec.url)] ?? 0;
    if (delay <= 0) return play(reply, rec, res);
    // The scripted delay of a slow answer, not synchronisation.
    const t = setTimeout(() => play(reply, rec, res), delay);
    res.on('close', () => clearTimeout(t));
  }
}
