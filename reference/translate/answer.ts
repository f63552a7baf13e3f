// The reference gateway's translating route, the answer side: a chat-completions answer or
// error of the upstream rewritten as the messages protocol's, for the client. Its own code (see
// request.ts). A fault may lose the tool calls or their thought signatures, or change an error's
// status.
import type { Json } from '../faults/types.js';
import type { TranslateFault } from '../faults/types.js';

/** The messages protocol's error type for a status. */
export const ERROR_TYPE: Record<number, string> = { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error', 413: 'request_too_large', 429: 'rate_limit_error', 500: 'api_error', 503: 'overloaded_error', 529: 'overloaded_error' };

export const STOP: Record<string, string> = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use', function_call: 'tool_use', content_filter: 'refusal' };

/** The chat words a broken translation's middle format gives the newer messages stop reasons (fault stopAsChat). */
const CHAT_WORD: Record<string, string> = { refusal: 'content_filter', pause_turn: 'stop', model_context_window_exceeded: 'stop' };

/** The messages stop reason of a chat finish_reason; with the fault, content_filter reaches the client as it is. */
export const stopOf = (finish: string, fault: TranslateFault): string => (fault.stopAsChat && finish === 'content_filter' ? finish : (STOP[finish] ?? 'end_turn'));

/** A messages stop reason as the client gets it from a messages-shaped upstream: as it is, or with the fault in the middle format's word. */
export const keptStop = (stop: unknown, fault: TranslateFault): unknown => (fault.stopAsChat && typeof stop === 'string' ? (CHAT_WORD[stop] ?? stop) : stop);

/** Chat usage as the messages protocol states it: the cached part of the prompt apart. */
export function usage(u: Json): Json {
  const cached = Number(u?.prompt_tokens_details?.cached_tokens ?? 0);
  return { input_tokens: Number(u?.prompt_tokens ?? 0) - cached, cache_creation_input_tokens: 0, cache_read_input_tokens: cached, output_tokens: Number(u?.completion_tokens ?? 0) };
}

/**
 * A chat tool call's Gemini thought signature (`extra_content.google.thought_signature`) rides
 * in the messages tool_use id, after this separator, so the client's next turn brings it back
 * (request.ts takes it out again); with the fault it is dropped.
 */
export const SIGNATURE_IN_ID = '__sig__';

/** The messages tool_use id of a chat tool call: its id, with its thought signature when it has one. */
export function toolUseId(call: Json, fault: TranslateFault): string {
  const sig = call?.extra_content?.google?.thought_signature;
  return typeof sig === 'string' && sig && !fault.dropThoughtSignature ? `${call.id}${SIGNATURE_IN_ID}${sig}` : call?.id;
}

let counter = 0;
export const messageId = () => `msg_ref${String(++counter).padStart(10, '0')}`;

const parsed = (args: string): Json => {
  try {
    return JSON.parse(args || '{}');
  } catch {
    return {};
  }
};

/** The web search a broken translation makes up from a message's (empty) annotations: a server_tool_use block and an empty result. */
const inventedSearch = (): Json[] => [
  { type: 'server_tool_use', id: 'srvtoolu_ref0000000001', name: 'web_search', input: { query: '' } },
  { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_ref0000000001', content: [] },
];

/** A chat.completion as a messages `message`. */
export function messagesAnswer(chat: Json, fault: TranslateFault = {}): Json {
  const choice = chat?.choices?.[0] ?? {};
  const msg = choice.message ?? {};
  const calls: Json[] = fault.loseToolCalls ? [] : (msg.tool_calls ?? []);
  const content = [
    ...(fault.inventsWebSearch && Array.isArray(msg.annotations) ? inventedSearch() : []),
    ...(typeof msg.content === 'string' && msg.content ? [{ type: 'text', text: msg.content }] : []),
    ...calls.map((c) => ({ type: 'tool_use', id: toolUseId(c, fault), name: c.function?.name, input: parsed(c.function?.arguments) })),
  ];
  return { id: messageId(), type: 'message', role: 'assistant', model: chat?.model, content, stop_reason: stopOf(choice.finish_reason, fault), stop_sequence: null, usage: usage(chat?.usage) };
}

/** An upstream error (chat's shape, or anything) as a messages error, and the status the client gets. */
export function messagesError(status: number, body: string, fault: TranslateFault = {}): { status: number; body: string } {
  let message = body.slice(0, 2000);
  try {
    const e = JSON.parse(body)?.error;
    if (typeof e?.message === 'string') message = e.message;
  } catch {
    /* not JSON: its text is the message */
  }
  const out = fault.statusAs && fault.statusAs[0] === status ? fault.statusAs[1] : status;
  if (fault.errorWithStack) return { status: out, body: JSON.stringify({ error: { type: 'Error', message, stack: `Error: ${message}\n    at translateError (/app/router.js:88:11)` } }) };
  return { status: out, body: JSON.stringify({ type: 'error', error: { type: ERROR_TYPE[out] ?? 'api_error', message } }) };
}
