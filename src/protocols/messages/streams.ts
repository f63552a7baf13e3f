// Realistic messages-protocol streams, as the real API sends them: message_start with full usage, ping,
// a thinking block with thinking_delta and signature_delta, text deltas, a tool block whose
// first input_json_delta is empty, an event type no gateway knows yet, message_delta with
// cumulative usage, message_stop.
import type { SseFrame } from '../../upstream/scenario.js';
import { CACHE_USAGE, messageId } from './replies.js';

export interface StreamEvent {
  event: string;
  /** The data line's JSON text, exactly as sent. */
  data: string;
}

/** One SSE frame: an `event:` line, a `data:` line and a blank line, with the chosen line ending. */
export function frameText(e: StreamEvent, eol = '\n'): string {
  return `event: ${e.event}${eol}data: ${e.data}${eol}${eol}`;
}

/** message_start carries the cache usage and one output token so far. */
export const STREAM_USAGE_START = { ...CACHE_USAGE, output_tokens: 1 };
export const STREAM_USAGE_DELTA = { input_tokens: 2048, cache_creation_input_tokens: 1536, cache_read_input_tokens: 4096, output_tokens: 87 };

const j = (v: unknown) => JSON.stringify(v);

export interface StreamShape {
  /** Text deltas in the text block. */
  textDeltas?: number;
  /** Characters of text per delta (pads events, e.g. to fill a proxy's buffer block). */
  deltaChars?: number;
  /** Adds thinking and tool_use blocks, a ping and an event type from the future. */
  full?: boolean;
  /** Puts an `error` event after this many text deltas and ends there. */
  errorAfter?: number;
  model?: string;
}

/** The events of one realistic streamed message. */
export function messageStream(shape: StreamShape = {}): StreamEvent[] {
  const { textDeltas = 4, deltaChars = 8, full = true } = shape;
  const ev: StreamEvent[] = [];
  const push = (event: string, data: unknown) => ev.push({ event, data: typeof data === 'string' ? data : j(data) });
  push('message_start', {
    type: 'message_start',
    message: { id: messageId(), type: 'message', role: 'assistant', content: [], model: shape.model ?? 'claude-sonnet-4-5-20250929', stop_reason: null, stop_sequence: null, usage: STREAM_USAGE_START },
  });
  let index = 0;
  if (full) {
    push('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    push('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: 'The user wants the files listed.' } });
    push('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: 'EqQBCkgIBBABGAIiQHX2t0gk4bWYdKc1c9Q0y7mHf7Yq' } });
    push('content_block_stop', { type: 'content_block_stop', index });
    index++;
  }
  push('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
  // Real pings carry a space after the colon: the harness must not normalise it.
  if (full) push('ping', '{"type": "ping"}');
  for (let i = 0; i < textDeltas; i++) {
    if (shape.errorAfter !== undefined && i === shape.errorAfter) {
      push('error', '{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}');
      return ev;
    }
    const word = `chunk ${i} é😀 `;
    push('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: word.padEnd(Math.max(deltaChars, word.length), '.') } });
  }
  push('content_block_stop', { type: 'content_block_stop', index });
  if (full) {
    index++;
    push('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'Bash', input: {} } });
    push('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } });
    push('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '{"command": "ls' } });
    push('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: ' -la"}' } });
    push('content_block_stop', { type: 'content_block_stop', index });
    push('content_block_future_gwc', { type: 'content_block_future_gwc', index, note: 'an event type no gateway knows yet' });
  }
  push('message_delta', { type: 'message_delta', delta: { stop_reason: full ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: STREAM_USAGE_DELTA });
  push('message_stop', { type: 'message_stop' });
  return ev;
}

/** Frames of a stream: the first after `firstGapMs`, the others `gapMs` apart. */
export function frames(events: StreamEvent[], opts: { gapMs?: number; firstGapMs?: number; eol?: string } = {}): SseFrame[] {
  return events.map((e, i) => ({ gapMs: i === 0 ? (opts.firstGapMs ?? 0) : (opts.gapMs ?? 0), data: frameText(e, opts.eol) }));
}
