// Where each protocol's requests go, the small bodies the checks send on each, and which
// credentials reached the upstream. The case placeholder stands where the token travels.
import type { CheckContext } from '../../src/check/check.js';
import type { AuthStyle } from '../../src/client/gateway.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { headerValues, type RecordedRequest } from '../../src/upstream/record.js';
import { NATIVE_MODEL } from '../../src/upstream/replies/native.js';

export { NATIVE_MODEL };

export const MESSAGES_PATH = '/v1/messages';
export const CHAT_PATH = '/v1/chat/completions';
export const MESSAGES_MODEL = 'claude-sonnet-4-5-20250929';

/** `POST /v1beta/models/{model}:generateContent`, or `:streamGenerateContent?alt=sse` (spec 4 endpoint 4). */
export function nativePath(model = NATIVE_MODEL, stream = false): string {
  return `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
}

/** Path families, judged on the decoded path (an encoded `:` is NAT-PATH-1's finding, not NAT-X-1's). */
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

/** A messages body whose first user message carries the case placeholder. */
export function messagesBody(fields: Record<string, unknown> = {}, firstText = 'hello'): string {
  const { messages, ...rest } = fields;
  return JSON.stringify({
    model: MESSAGES_MODEL,
    max_tokens: 1024,
    messages: (messages as unknown[] | undefined) ?? [{ role: 'user', content: `${CASE_PLACEHOLDER} ${firstText}` }],
    ...rest,
  });
}

/** A small native body whose first text part carries the case placeholder. */
export function nativeBody(extra: Record<string, unknown> = {}, text = 'Say hello.'): string {
  return JSON.stringify({ contents: [{ role: 'user', parts: [{ text: `${CASE_PLACEHOLDER} ${text}` }] }], generationConfig: { temperature: 0.2, maxOutputTokens: 64 }, ...extra });
}

/** A small chat body whose user message carries the case placeholder. */
export function chatBody(extra: Record<string, unknown> = {}, text = 'Say hello.'): string {
  return JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: `${CASE_PLACEHOLDER} ${text}` }], temperature: 0.2, ...extra });
}

/** The default credential style of each protocol (spec 5). */
export const DEFAULT_AUTH: Record<'messages' | 'native' | 'chat', AuthStyle> = { messages: 'bearer', native: 'x-goog-api-key', chat: 'bearer' };

/** Which credentials reached the upstream, named without their values: `x-goog-api-key header (the client's key)`. */
export function credentialsAt(ctx: CheckContext, seen: RecordedRequest): string[] {
  const found: string[] = [];
  const whose = (v: string) => (ctx.gateway.isRunCredential(v) ? "the client's key" : "another value: the gateway's own credential?");
  for (const h of ['x-goog-api-key', 'authorization', 'x-api-key']) for (const v of headerValues(seen, h)) if (v.trim()) found.push(`${h} header (${whose(v)})`);
  const q = seen.url.indexOf('?');
  if (q >= 0) for (const v of new URLSearchParams(seen.url.slice(q + 1)).getAll('key')) if (v) found.push(`?key= query (${whose(v)})`);
  return found;
}
