// Shared steps of the native stream checks: a streamed answer (streamGenerateContent?alt=sse)
// through the gateway, what each payload is called in messages, and the pairing of what the
// upstream sent with the events the client read.
import type { CheckContext, Verdict } from '../../src/check/check.js';
import { parseJson } from '../../src/core/json.js';
import { nativeFrames, nativeSseReply, nativeStream } from '../../src/protocols/native/index.js';
import { nativeBody, nativePath } from '../shared/protocols.js';
import { streamEvidenceOf, streamThrough, type StreamExchange } from '../shared/exchange.js';
import { pairInOrder } from '../shared/pairing.js';

/** Text pieces with characters a re-encoding gateway gets wrong: one frame each. */
export const PIECES = ['Hel', 'lo, wor', 'ld é😀 "q" \\ ', 'done.'];

/** Streams an answer of `pieces` (one frame each, the last with finishReason STOP) `gapMs` apart on the native stream route. */
export function nativeStreamExchange(ctx: CheckContext, opts: { pieces?: string[]; gapMs?: number; model?: string } = {}): Promise<StreamExchange> {
  const payloads = nativeStream({ pieces: opts.pieces ?? PIECES, model: opts.model });
  return streamThrough(ctx, nativeSseReply(nativeFrames(payloads, { gapMs: opts.gapMs ?? 0 })), {
    path: nativePath(opts.model, true),
    auth: 'x-goog-api-key',
    body: nativeBody({}, 'Stream a hello.'),
  });
}

/** The verdict when no stream came back: the status the client got, or that nothing reached the upstream. */
export function noStream(x: StreamExchange): Verdict | null {
  if (x.res.status === 200 && x.seen) return null;
  return {
    ok: false,
    message: x.seen ? `the client got status ${x.res.status}${x.res.error ? ` (${x.res.error})` : ''} instead of a stream` : `the streamed request never reached the upstream (the gateway answered ${x.res.status})`,
    evidence: streamEvidenceOf(x),
  };
}

/** What a payload is, for timelines and messages: its text piece, its finish reason, [DONE], or not JSON. */
export function payloadName(payload: string): string {
  if (payload.trim() === '[DONE]') return '[DONE]';
  try {
    const v = parseJson(payload) as { candidates?: Array<{ content?: { parts?: Array<{ text?: string }> }; finishReason?: string }> };
    const c = v.candidates?.[0];
    const text = c?.content?.parts?.map((p) => p.text ?? '').join('') ?? '';
    return `${JSON.stringify(text.slice(0, 12))}${c?.finishReason ? ` ${c.finishReason}` : ''}`;
  } catch {
    return `not JSON ${JSON.stringify(payload.slice(0, 24))}`;
  }
}

/** Each sent payload with the client event carrying it, in order (a lost or added event does not shift the later pairings). */
export const pairPayloads = pairInOrder;
