// Shared steps of the service profile (SVC-1..4): requests straight to the hosted service with
// its one key, no recording upstream. Prompts are tiny: a run costs a few tokens per protocol.
import type { CheckContext, Evidence } from '../../src/check/check.js';
import type { GwRequest, GwResponse } from '../../src/client/gateway.js';
import { minimalRequest, type Protocol } from '../../src/protocols/index.js';
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

/** The smallest request of a protocol with the run's prompt (the service's answer is a few tokens). */
const request = (p: Protocol, model: string, stream: boolean, maxTokens?: number): Omit<GwRequest, 'signal'> => minimalRequest(p, { model, text: PROMPT, maxTokens, stream });

export const messagesRequest = (model: string, stream: boolean) => request('messages', model, stream, 64);
export const nativeRequest = (model: string, stream: boolean) => request('native', model, stream);
export const chatRequest = (model: string, stream: boolean) => request('chat', model, stream);

export function responseEvidence(what: string, res: GwResponse, max = 800): Evidence {
  return { [what]: clientEvidence(res, max) };
}

export function streamResultEvidence(what: string, path: string, s: SseResult, max = 800): Evidence {
  return { [what]: { path: maskUrl(path), status: s.status, headers: maskHeaders(s.rawHeaders), events: s.events.length, error: s.error ?? null, body: cut(s.raw.toString('utf8'), max) } };
}
