// The reference gateway's translating route to Bedrock, the request side: a messages request (the
// client's) rewritten as a Bedrock InvokeModel request (the model in the path, the stream as its
// own route, the body without `model` and `stream` and with Bedrock's `anthropic_version`, the
// client's betas in the body). Its own code, as request.ts says: not the harness's records.
import type { Json, RequestParts, TranslateFault } from '../faults/types.js';
import { chatHeaders } from './request.js';
import { BEDROCK_VERSION } from '../../src/protocols/bedrock/index.js';

/** The `anthropic_version` Bedrock wants in the body of an Anthropic model's request. */

/** The InvokeModel path of a model: its id percent-encoded (the ":" as %3A), as the AWS SDK sends it. */
export const invokePath = (model: string, stream: boolean) => `/model/${encodeURIComponent(model)}/${stream ? 'invoke-with-response-stream' : 'invoke'}`;

/** The Bedrock body of a messages body: the same fields but `model` and `stream`, with the version and the betas of the header. */
export function bedrockBody(messages: Json, betas: string[]): Json {
  const out: Json = { anthropic_version: BEDROCK_VERSION };
  for (const [k, v] of Object.entries(messages as Record<string, unknown>)) if (k !== 'model' && k !== 'stream') out[k] = v;
  if (betas.length && out.anthropic_beta === undefined) out.anthropic_beta = betas;
  return out;
}

/** Rewrites `parts` (a messages request with its parsed body) in place as a Bedrock InvokeModel request. */
export function toBedrock(parts: RequestParts, messages: Json, fault: TranslateFault = {}): void {
  const betas = parts.headers.filter(([k]) => k.toLowerCase() === 'anthropic-beta').flatMap(([, v]) => v.split(',').map((b) => b.trim()).filter(Boolean));
  const stream = messages?.stream === true;
  parts.path = invokePath(String(messages?.model ?? ''), stream);
  parts.headers = [...chatHeaders(parts.headers).filter(([k]) => k.toLowerCase() !== 'accept'), ['accept', stream ? 'application/vnd.amazon.eventstream' : 'application/json']];
  parts.body = Buffer.from(JSON.stringify(bedrockBody(messages, fault.dropBetas ? [] : betas)));
}
