// Shared steps of the chat stream checks: a streamed completion through the gateway, and the
// pairing of what the upstream sent with what the client received.
import type { CheckContext } from '../../src/check/check.js';
import { parseJson } from '../../src/core/json.js';
import { chatFrames, chatSseReply, chatStream, DONE } from '../../src/protocols/chat/index.js';
import { CHAT_PATH, chatBody } from '../shared/protocols.js';
import { type StreamExchange, streamThrough } from '../shared/exchange.js';
import { cut } from '../shared/evidence.js';
import { pairByPosition } from '../shared/pairing.js';

/** Streams a completion (role chunk, `pieces`, finish chunk, usage chunk, [DONE]) `gapMs` apart. */
export function chatStreamExchange(ctx: CheckContext, opts: { pieces?: string[]; gapMs?: number } = {}): Promise<StreamExchange> {
  const payloads = chatStream({ pieces: opts.pieces, includeUsage: true });
  return streamThrough(ctx, chatSseReply(chatFrames(payloads, { gapMs: opts.gapMs ?? 0 })), {
    path: CHAT_PATH,
    auth: 'bearer',
    body: chatBody({ stream: true, stream_options: { include_usage: true } }, 'Stream a hello.'),
  });
}

/** What a chunk is, for timelines and messages: role, content, finish, usage (no choices), [DONE]. */
export function chunkName(payload: string): string {
  if (payload === DONE) return '[DONE]';
  try {
    const v = parseJson(payload) as { choices?: Array<{ delta?: { role?: string; content?: string }; finish_reason?: string | null }> };
    const c = v.choices?.[0];
    if (!c) return 'usage (choices: [])';
    if (c.finish_reason) return `finish ${c.finish_reason}`;
    if (c.delta?.role) return 'role';
    return `content ${JSON.stringify(cut(c.delta?.content ?? '', 12))}`;
  } catch {
    return 'not JSON';
  }
}

/**
 * Pairs each sent payload with the client event carrying it, in order: position by position when
 * the counts agree, else by content (so a dropped chunk does not shift every later pairing).
 */
export const pairEvents = pairByPosition;
