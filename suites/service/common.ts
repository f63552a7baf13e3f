// Shared steps of the service profile (SVC-1..4): requests straight to the hosted service with
// its one key, no recording upstream. Prompts are tiny: a run costs a few tokens per protocol.
import type { CheckContext, Evidence } from '../../src/check/check.js';
import { messagesHeaders, type GwRequest, type GwResponse } from '../../src/client/gateway.js';
import { maskHeaders, maskUrl } from '../../src/core/mask.js';
import { clientEvidence, cut } from '../shared/evidence.js';
import type { SseResult } from '../../src/client/sse.js';

export const PROMPT = 'Reply with the single word: hello.';
/** A key no service issues; sent as a header value of its own, never the run's key. */
export const BAD_KEY = 'gwc-invalid-key-00000000000000000000';

export interface ServiceModels {
  messages: string;
  native: string;
  chat: string;
}

/** The models of the run. Service checks need the `service` feature, declared only in the service profile, so they are always set. */
export function modelsOf(ctx: CheckContext): ServiceModels {
  const models = ctx.settings.service?.models;
  if (!models) throw new Error('harness bug: a service check ran without the service profile (it needs the `service` feature)');
  return models;
}

export const messagesRequest = (model: string, stream: boolean): Omit<GwRequest, 'signal'> => ({
  method: 'POST',
  path: '/v1/messages',
  auth: 'bearer',
  headers: messagesHeaders(),
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

export function responseEvidence(what: string, res: GwResponse, max = 800): Evidence {
  return { [what]: clientEvidence(res, max) };
}

export function streamResultEvidence(what: string, path: string, s: SseResult, max = 800): Evidence {
  return { [what]: { path: maskUrl(path), status: s.status, headers: maskHeaders(s.rawHeaders), events: s.events.length, error: s.error ?? null, body: cut(s.raw.toString('utf8'), max) } };
}
