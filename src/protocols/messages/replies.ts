// Realistic messages-protocol (Anthropic) bodies for the recording upstream, shaped like the
// real API's so gateways meet what they meet in production.

export const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

export interface Usage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  output_tokens: number;
  service_tier?: string;
  [extra: string]: unknown;
}

export const DEFAULT_USAGE: Usage = {
  input_tokens: 25,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  output_tokens: 1,
  service_tier: 'standard',
};

/** Usage of a request that wrote and read the prompt cache, 5-minute and 1-hour entries both. */
export const CACHE_USAGE: Usage = {
  input_tokens: 2048,
  cache_creation_input_tokens: 1536,
  cache_read_input_tokens: 4096,
  cache_creation: { ephemeral_5m_input_tokens: 512, ephemeral_1h_input_tokens: 1024 },
  output_tokens: 87,
  service_tier: 'standard',
};

let counter = 0;
export function messageId(): string {
  counter++;
  return `msg_01gwc${String(counter).padStart(8, '0')}`;
}

/** A 200 message body; `extra` fields are appended after the usual ones, in order. */
export function messageBody(opts: { model?: string; text?: string; usage?: Usage; extra?: Record<string, unknown> } = {}): string {
  return JSON.stringify({
    id: messageId(),
    type: 'message',
    role: 'assistant',
    model: opts.model ?? 'claude-sonnet-4-5-20250929',
    content: [{ type: 'text', text: opts.text ?? 'Hello' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: opts.usage ?? DEFAULT_USAGE,
    ...opts.extra,
  });
}

export function errorBody(status: number, message?: string): string {
  const type = ERROR_TYPES[status] ?? 'api_error';
  return JSON.stringify({ type: 'error', error: { type, message: message ?? `gw-conformance upstream: scripted ${status} ${type}` }, request_id: `req_01gwc${status}` });
}
