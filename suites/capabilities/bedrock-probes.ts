// The Bedrock InvokeModel protocol's capability probes: the messages protocol's probes of the
// features Bedrock offers (its record's `features`), sent as Bedrock sends them: to /model/{id}/invoke (or
// the stream route), `anthropic_version` in the body and no `model`, betas in `anthropic_beta`
// in the body (which must reach the upstream) instead of a header; answered in Bedrock form (the
// same answer body, its stream's events in event-stream messages).
import { BEDROCK, BEDROCK_JSON_HEADERS, BEDROCK_VERSION, bedrockPath, bedrockStreamReply } from '../../src/protocols/bedrock/index.js';
import type { Probe } from './common.js';
import { MESSAGES_PROBES } from './messages-probes.js';

/** The event JSON of a messages-protocol SSE frame (its data line). */
const dataOf = (frame: string) => frame.split(/\r?\n/).filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');

function onBedrock(p: Probe): Probe {
  return {
    ...p,
    body: (model, stream) => {
      const { model: _model, stream: _stream, ...rest } = JSON.parse(p.body(model, stream)) as Record<string, unknown>;
      return JSON.stringify({ anthropic_version: BEDROCK_VERSION, ...rest, ...(p.betas ? { anthropic_beta: p.betas } : {}) });
    },
    path: (model, stream) => bedrockPath(model, stream ? 'invoke-with-response-stream' : 'invoke'),
    headers: [],
    betas: undefined,
    keep: [...p.keep, ...(p.betas ? ['/anthropic_beta'] : [])],
    json: () => {
      const r = p.json();
      return r.kind === 'json' ? { ...r, protocol: 'bedrock', headers: BEDROCK_JSON_HEADERS } : r;
    },
    stream: () => bedrockStreamReply(p.stream().frames.map((f) => ({ gapMs: f.gapMs, data: dataOf(f.data) }))),
  };
}

export const BEDROCK_PROBES: readonly Probe[] = MESSAGES_PROBES.filter((p) => BEDROCK.features.includes(p.feature)).map(onBedrock);
