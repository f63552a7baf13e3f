// Shared steps of the service profile (SVC-1..4): requests straight to the hosted service with
// its one key, no recording upstream. Prompts are tiny: a run costs a few tokens per protocol.
import type { CheckContext, Evidence, Verdict } from '../../src/core/check.js';
import { ANTHROPIC_VERSION, type GwRequest, type GwResponse } from '../../src/client/gateway.js';
import { maskHeaders, maskUrl } from '../../src/core/mask.js';
import type { SseResult } from '../../src/client/sse.js';

export const PROMPT = 'Reply with the single word: hello.';
/** A key no service issues; sent as a header value of its own, never the run's key. */
export const BAD_KEY = 'gwc-invalid-key-00000000000000000000';

export interface ServiceModels {
  messages: string;
  native: string;
  chat: string;
}

/** The models of the run, or null outside the service profile (the check is then skipped). */
export function modelsOf(ctx: CheckContext): ServiceModels | null {
  return ctx.settings.service?.models ?? null;
}

export const outsideProfile = (): Verdict => ({
  ok: true,
  skip: true,
  message: 'runs only in the service profile: --profile service with GWC_SERVICE_KEY, GWC_MESSAGES_MODEL, GWC_NATIVE_MODEL and GWC_CHAT_MODEL set',
});

export const messagesRequest = (model: string, stream: boolean): Omit<GwRequest, 'signal'> => ({
  method: 'POST',
  path: '/v1/messages',
  auth: 'bearer',
  headers: [['content-type', 'application/json'], ['anthropic-version', ANTHROPIC_VERSION]],
  body: JSON.stringify({ model, max_tokens: 64, messages: [{ role: 'user', content: PROMPT }], ...(stream ? { stream: true } : {}) }),
});

export const nativeRequest = (model: string, stream: boolean): Omit<GwRequest, 'signal'> => ({
  method: 'POST',
  path: `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
  auth: 'x-goog-api-key',
  headers: [['content-type', 'application/json']],
  body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: PROMPT }] }] }),
});

export const chatRequest = (model: string, stream: boolean): Omit<GwRequest, 'signal'> => ({
  method: 'POST',
  path: '/v1/chat/completions',
  auth: 'bearer',
  headers: [['content-type', 'application/json']],
  body: JSON.stringify({ model, messages: [{ role: 'user', content: PROMPT }], ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}) }),
});

export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const isJsonType = (ct: string | undefined) => /json/i.test(ct ?? '');

const cut = (t: string, max: number) => (t.length > max ? `${t.slice(0, max)}... (${t.length} bytes)` : t);

export function responseEvidence(what: string, res: GwResponse, max = 800): Evidence {
  return { [what]: { status: res.status, headers: maskHeaders(res.rawHeaders), ms: Math.round(res.endedAt - res.startedAt), body: cut(res.text(), max) } };
}

export function streamResultEvidence(what: string, path: string, s: SseResult, max = 800): Evidence {
  return { [what]: { path: maskUrl(path), status: s.status, headers: maskHeaders(s.rawHeaders), events: s.events.length, error: s.error ?? null, body: cut(s.raw.toString('utf8'), max) } };
}
