// Where each protocol's requests go, the small bodies the checks of several areas send, and which
// credentials reached the upstream. The case placeholder stands where the token travels.
import type { CheckContext } from '../../src/check/check.js';
import { DEFAULT_MODEL } from '../../src/protocols/index.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { headerValues, type RecordedRequest } from '../../src/upstream/record.js';
import { NATIVE_MODEL } from '../../src/protocols/native/index.js';

export { NATIVE_MODEL };
// Paths, and the family of a path that reached the upstream: the protocol module's.
export { CHAT_PATH, MESSAGES_PATH, RESPONSES_PATH, nativePath, pathFamily } from '../../src/protocols/index.js';

export const MESSAGES_MODEL = DEFAULT_MODEL.messages;

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
  return JSON.stringify({ model: DEFAULT_MODEL.chat, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: `${CASE_PLACEHOLDER} ${text}` }], temperature: 0.2, ...extra });
}

/** A small Responses API body whose input message carries the case placeholder. */
export function responsesBody(extra: Record<string, unknown> = {}, text = 'Say hello.'): string {
  return JSON.stringify({ model: DEFAULT_MODEL.responses, instructions: 'Be brief.', input: [{ role: 'user', content: [{ type: 'input_text', text: `${CASE_PLACEHOLDER} ${text}` }] }], temperature: 0.2, ...extra });
}

/** Which credentials reached the upstream, named without their values: `x-goog-api-key header (the client's key)`. */
export function credentialsAt(ctx: CheckContext, seen: RecordedRequest): string[] {
  const found: string[] = [];
  const whose = (v: string) => (ctx.gateway.isRunCredential(v) ? "the client's key" : "another value: the gateway's own credential?");
  for (const h of ['x-goog-api-key', 'authorization', 'x-api-key']) for (const v of headerValues(seen, h)) if (v.trim()) found.push(`${h} header (${whose(v)})`);
  const q = seen.url.indexOf('?');
  if (q >= 0) for (const v of new URLSearchParams(seen.url.slice(q + 1)).getAll('key')) if (v) found.push(`?key= query (${whose(v)})`);
  return found;
}
