// Realistic answers that carry one capability each, as the providers send them: messages content
// blocks (tool_use, thinking with its signature, redacted_thinking, server tool use with web
// search results, the server tools web fetch, code execution and advisor with their result
// blocks, tool search over deferred tools, text with citations) as a JSON body or as the stream of events the real API
// sends for them (input_json_delta, thinking_delta and signature_delta, citations_delta); chat
// tool calls (streamed as tool_calls deltas) and JSON content; native function calls.
import { CACHE_USAGE, DEFAULT_USAGE, messageId, type Usage } from './replies.js';
import type { StreamEvent } from './streams.js';

export type Block = Record<string, unknown>;

export const SIGNATURE = 'EqQBCkgIBBABGAIiQHX2t0gk4bWYdKc1c9Q0y7mHf7YqErNjZ3djLWNhcGFiaWxpdHktc2lnbmF0dXJl';
export const REDACTED = 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vAY=';

/** Answer blocks per feature of the messages protocol (the text block of a plain answer is added by the callers that need one). */
export const MESSAGES_ANSWERS: Record<string, { blocks: Block[]; usage?: Usage; stop?: string }> = {
  tools: { blocks: [{ type: 'text', text: 'Listing the files.' }, { type: 'tool_use', id: 'toolu_01Capab1l1ty0000000001', name: 'Bash', input: { command: 'ls -la', timeout: 30 } }], stop: 'tool_use' },
  thinking: {
    blocks: [{ type: 'thinking', thinking: 'The user asks for the sum; 2 + 2 = 4.', signature: SIGNATURE }, { type: 'redacted_thinking', data: REDACTED }, { type: 'text', text: '4' }],
  },
  'web-search': {
    blocks: [
      { type: 'server_tool_use', id: 'srvtoolu_01Capab1l1ty00001', name: 'web_search', input: { query: 'gateway conformance' } },
      { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01Capab1l1ty00001', content: [{ type: 'web_search_result', url: 'https://example.com/conformance', title: 'Conformance', encrypted_content: 'EqgfCioIARgBIiQ3YTAw', page_age: 'April 30, 2025' }] },
      { type: 'text', text: 'Results found.' },
    ],
    usage: { ...DEFAULT_USAGE, server_tool_use: { web_search_requests: 1 } },
  },
  // Server tools Anthropic runs itself, each a server_tool_use block and its result block (results arrive whole in their start event).
  'server-tools': {
    blocks: [
      { type: 'server_tool_use', id: 'srvtoolu_01Capab1l1ty00002', name: 'web_fetch', input: { url: 'https://example.com/conformance' } },
      { type: 'web_fetch_tool_result', tool_use_id: 'srvtoolu_01Capab1l1ty00002', content: { type: 'web_fetch_result', url: 'https://example.com/conformance', retrieved_at: '2026-11-30T09:12:44Z', content: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Conformance notes.' }, title: 'Conformance' } } },
      { type: 'server_tool_use', id: 'srvtoolu_01Capab1l1ty00003', name: 'bash_code_execution', input: { command: 'wc -l notes.txt' } },
      { type: 'bash_code_execution_tool_result', tool_use_id: 'srvtoolu_01Capab1l1ty00003', content: { type: 'bash_code_execution_result', stdout: '12 notes.txt\n', stderr: '', return_code: 0, content: [] } },
      { type: 'server_tool_use', id: 'srvtoolu_01Capab1l1ty00004', name: 'advisor', input: {} },
      { type: 'advisor_tool_result', tool_use_id: 'srvtoolu_01Capab1l1ty00004', content: { type: 'advisor_result', text: 'Count the lines first.' } },
      { type: 'text', text: 'The notes have 12 lines.' },
    ],
    usage: { ...DEFAULT_USAGE, server_tool_use: { web_fetch_requests: 1 } },
  },
  // Tool search over deferred tools: the search, the tool references it found, then the call of a found tool.
  'tool-search': {
    blocks: [
      { type: 'server_tool_use', id: 'srvtoolu_01Capab1l1ty00005', name: 'tool_search_tool_regex', input: { pattern: 'weather' } },
      { type: 'tool_search_tool_result', tool_use_id: 'srvtoolu_01Capab1l1ty00005', content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'get_weather' }] } },
      { type: 'tool_use', id: 'toolu_01Capab1l1ty0000000002', name: 'get_weather', input: { city: 'Paris' } },
    ],
    stop: 'tool_use',
  },
  citations: {
    blocks: [
      { type: 'text', text: 'The grass is green.', citations: [{ type: 'char_location', cited_text: 'The grass is green.', document_index: 0, document_title: 'Facts', start_char_index: 0, end_char_index: 20 }] },
    ],
  },
  'cache-5m': { blocks: [{ type: 'text', text: 'Cached.' }], usage: { ...CACHE_USAGE, cache_creation: { ephemeral_5m_input_tokens: 1536, ephemeral_1h_input_tokens: 0 } } },
  'cache-1h': { blocks: [{ type: 'text', text: 'Cached for an hour.' }], usage: { ...CACHE_USAGE, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 1536 } } },
};

/** The stop reasons newer than end_turn, max_tokens, stop_sequence and tool_use, which gateways that check the list they knew miss. */
export const NEWER_STOP_REASONS = ['refusal', 'pause_turn', 'model_context_window_exceeded'] as const;

export const PLAIN_ANSWER = { blocks: [{ type: 'text', text: 'Seen.' }] as Block[] };

/** A 200 messages body with these blocks. */
export function blocksBody(a: { blocks: Block[]; usage?: Usage; stop?: string }): string {
  return JSON.stringify({ id: messageId(), type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: a.blocks, stop_reason: a.stop ?? 'end_turn', stop_sequence: null, usage: a.usage ?? DEFAULT_USAGE });
}

/** The deltas the real API streams for one block, and the block's empty start. */
function blockDeltas(b: Block): { start: Block; deltas: Block[] } {
  switch (b.type) {
    case 'text': {
      const text = String(b.text);
      const half = Math.ceil(text.length / 2);
      const deltas: Block[] = [text.slice(0, half), text.slice(half)].filter(Boolean).map((t) => ({ type: 'text_delta', text: t }));
      for (const c of (b.citations as Block[] | undefined) ?? []) deltas.push({ type: 'citations_delta', citation: c });
      return { start: { type: 'text', text: '', ...(b.citations ? { citations: [] } : {}) }, deltas };
    }
    case 'thinking':
      return { start: { type: 'thinking', thinking: '', signature: '' }, deltas: [{ type: 'thinking_delta', thinking: b.thinking }, { type: 'signature_delta', signature: b.signature }] };
    case 'tool_use':
    case 'server_tool_use': {
      const input = JSON.stringify(b.input);
      const cut = Math.floor(input.length / 2);
      return { start: { ...b, input: {} }, deltas: ['', input.slice(0, cut), input.slice(cut)].map((p) => ({ type: 'input_json_delta', partial_json: p })) };
    }
    default:
      // redacted_thinking and tool results arrive whole in their start event.
      return { start: b, deltas: [] };
  }
}

/** The stream of events of an answer with these blocks: message_start, each block's start, deltas and stop, message_delta, message_stop. */
export function blocksStream(a: { blocks: Block[]; usage?: Usage; stop?: string }): StreamEvent[] {
  const ev: StreamEvent[] = [];
  const push = (event: string, data: Block) => ev.push({ event, data: JSON.stringify(data) });
  const usage = a.usage ?? DEFAULT_USAGE;
  push('message_start', { type: 'message_start', message: { id: messageId(), type: 'message', role: 'assistant', content: [], model: 'claude-sonnet-4-5-20250929', stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } });
  a.blocks.forEach((b, index) => {
    const { start, deltas } = blockDeltas(b);
    push('content_block_start', { type: 'content_block_start', index, content_block: start });
    for (const delta of deltas) push('content_block_delta', { type: 'content_block_delta', index, delta });
    push('content_block_stop', { type: 'content_block_stop', index });
  });
  const { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, output_tokens, server_tool_use } = usage;
  push('message_delta', { type: 'message_delta', delta: { stop_reason: a.stop ?? 'end_turn', stop_sequence: null }, usage: { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, output_tokens, ...(server_tool_use ? { server_tool_use } : {}) } });
  push('message_stop', { type: 'message_stop' });
  return ev;
}

/** A chat tool call as the answer's message carries it. */
export const CHAT_TOOL_CALL = { id: 'call_Capab1l1ty0000000001', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' } };
/** The JSON a structured-output answer holds. */
export const CHAT_JSON_CONTENT = '{"city":"Paris","temperature_c":18}';

/** A native function call part, and the answer value that carries it. */
export const NATIVE_FUNCTION_CALL = { functionCall: { name: 'get_weather', args: { city: 'Paris', unit: 'celsius' } } };
