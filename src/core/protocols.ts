// The three protocols a gateway carries (messages: Anthropic; native: Gemini; chat: OpenAI),
// in one place: their paths and how to tell a protocol from a path, the credential styles and
// each protocol's default one, and the minimal request of each (what the readiness gate and
// the recovery probe send). At the bottom of the source tree: it imports nothing, so the
// client, the configuration, the runner and the checks all read the same facts.

export const PROTOCOLS = ['messages', 'native', 'chat'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/**
 * How the run's credential is attached: a header (`bearer`, `x-api-key`, the native protocol's
 * `x-goog-api-key`), the native `?key=` query (`key-query`), or not at all.
 */
export const CREDENTIAL_STYLES = ['bearer', 'x-api-key', 'x-goog-api-key', 'key-query', 'none'] as const;
export type AuthStyle = (typeof CREDENTIAL_STYLES)[number];

/** The credential style each protocol's own clients use (Claude Code and OpenAI SDKs a bearer token, Gemini SDKs `x-goog-api-key`). */
export const DEFAULT_CREDENTIAL: Record<Protocol, AuthStyle> = { messages: 'bearer', native: 'x-goog-api-key', chat: 'bearer' };

export const MESSAGES_PATH = '/v1/messages';
export const CHAT_PATH = '/v1/chat/completions';

/** The model each protocol's minimal request names (any model the recording upstream answers). */
export const DEFAULT_MODEL: Record<Protocol, string> = { messages: 'claude-sonnet-4-5-20250929', native: 'gemini-2.5-flash', chat: 'gpt-4o-mini' };

/** `POST /v1beta/models/{model}:generateContent`, or `:streamGenerateContent?alt=sse` to stream. */
export function nativePath(model = DEFAULT_MODEL.native, stream = false): string {
  return `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
}

/** The protocol a request path the client sends belongs to (discovery and count_tokens are the messages protocol's). */
export function protocolOfPath(path: string): Protocol {
  if (/^\/v1beta\//.test(path)) return 'native';
  if (/^\/v1\/chat\//.test(path)) return 'chat';
  return 'messages';
}

/**
 * The family of a path as it reached the upstream (after any prefix the gateway put before it),
 * judged on the decoded path: an encoded `:` is a finding on the path's form, not on its family.
 */
export function pathFamily(url: string): 'native' | 'chat' | 'other' {
  let p = url.split('?')[0];
  try {
    p = decodeURIComponent(p);
  } catch {
    /* kept as it came */
  }
  if (/\/v1beta\/models\/[^/]+:(generateContent|streamGenerateContent)$/.test(p)) return 'native';
  if (/\/chat\/completions$/.test(p)) return 'chat';
  return 'other';
}

/** The `anthropic-version` a messages client sends today. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** The headers of a messages-protocol POST: JSON, and `anthropic-version` (a given value, the current one, or none with null). */
export function messagesHeaders(version?: string | null): Array<[string, string]> {
  return [['content-type', 'application/json'], ...(version === null ? [] : [['anthropic-version', version ?? ANTHROPIC_VERSION] as [string, string]])];
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

/** The smallest request of a protocol: one user message, the protocol's default credential style. */
export function minimalRequest(p: Protocol, o: MinimalRequestOptions): MinimalRequest {
  const model = o.model ?? DEFAULT_MODEL[p];
  const json: Array<[string, string]> = [['content-type', 'application/json']];
  if (p === 'native') {
    const limit = o.maxTokens === undefined ? {} : { generationConfig: { maxOutputTokens: o.maxTokens } };
    const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: o.text }] }], ...limit });
    return { method: 'POST', path: nativePath(model, o.stream), auth: DEFAULT_CREDENTIAL.native, headers: json, body };
  }
  if (p === 'chat') {
    const limit = o.maxTokens === undefined ? {} : { max_tokens: o.maxTokens };
    const stream = o.stream ? { stream: true, stream_options: { include_usage: true } } : {};
    const body = JSON.stringify({ model, messages: [{ role: 'user', content: o.text }], ...limit, ...stream });
    return { method: 'POST', path: CHAT_PATH, auth: DEFAULT_CREDENTIAL.chat, headers: json, body };
  }
  const body = JSON.stringify({ model, max_tokens: o.maxTokens ?? 1024, messages: [{ role: 'user', content: o.text }], ...(o.stream ? { stream: true } : {}) });
  return { method: 'POST', path: MESSAGES_PATH, auth: DEFAULT_CREDENTIAL.messages, headers: messagesHeaders(), body };
}
