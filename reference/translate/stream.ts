// The reference gateway's translating route, the stream side: the upstream's chat-completions
// chunks rewritten as messages-protocol events, each written as soon as its chunk has arrived
// (eventsource-parser reads the upstream's SSE). Its own code (see request.ts). A fault may
// hold every event until the upstream's stream has ended, or lose the tool calls.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Json } from '../faults/types.js';
import { messageId, stopOf, toolUseId, usage } from './answer.js';
import type { TranslateFault } from '../faults/types.js';

const event = (name: string, data: Json) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/** A translator of one stream: feed it the upstream's bytes, it calls `write` with messages events. */
export function messagesStream(write: (text: string) => void, fault: TranslateFault = {}): { feed(chunk: Buffer): void; end(): void } {
  let index = -1;
  let open: 'text' | 'tool_use' | null = null;
  let stop = 'end_turn';
  let use: Json = null;
  let started = false;
  let finished = false;
  const held: string[] = [];
  const out = (text: string) => (fault.bufferStream ? held.push(text) : write(text));
  const close = () => {
    if (open) out(event('content_block_stop', { type: 'content_block_stop', index }));
    open = null;
  };
  const block = (type: 'text' | 'tool_use', start: Json) => {
    close();
    index++;
    open = type;
    out(event('content_block_start', { type: 'content_block_start', index, content_block: start }));
  };
  const finish = () => {
    if (finished || !started) return;
    finished = true;
    close();
    out(event('message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: usage(use) }));
    out(event('message_stop', { type: 'message_stop' }));
  };
  // \`finish\` runs at [DONE]; the usage chunk comes before it (include_usage).
  const chunk = (c: Json) => {
    if (!started) {
      started = true;
      out(event('message_start', { type: 'message_start', message: { id: messageId(), type: 'message', role: 'assistant', content: [], model: c.model, stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 } } }));
    }
    const choice = c.choices?.[0];
    const delta = choice?.delta ?? {};
    if (typeof delta.content === 'string' && delta.content) {
      if (open !== 'text') block('text', { type: 'text', text: '' });
      out(event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: delta.content } }));
    }
    for (const call of fault.loseToolCalls || fault.loseStreamToolCalls ? [] : (delta.tool_calls ?? [])) {
      if (call.id) block('tool_use', { type: 'tool_use', id: toolUseId(call, fault), name: call.function?.name, input: {} });
      if (call.function?.arguments) out(event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: call.function.arguments } }));
    }
    if (choice?.finish_reason) stop = stopOf(choice.finish_reason, fault);
    if (c.usage) use = c.usage;
  };
  const parser = createParser({
    onEvent(m: EventSourceMessage) {
      if (m.data.trim() === '[DONE]') return finish();
      try {
        const c = JSON.parse(m.data);
        if (c.error) out(event('error', { type: 'error', error: { type: 'api_error', message: String(c.error.message ?? '') } }));
        else chunk(c);
      } catch {
        /* a chunk that is not JSON carries nothing to translate */
      }
    },
  });
  // A character split across two chunks is decoded whole.
  const utf8 = new TextDecoder('utf-8');
  return {
    feed: (b) => parser.feed(utf8.decode(b, { stream: true })),
    // A stream that ended without [DONE] was cut: no end is made up for it.
    end: () => {
      for (const t of held.splice(0)) write(t);
    },
  };
}
