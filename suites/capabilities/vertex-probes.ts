// The vertex protocol's capability probes: the messages protocol's (messages-probes.ts), each
// request sent as Vertex takes it: the model in the rawPredict or streamRawPredict path, the body
// with `anthropic_version` and without `model`. The answers are the messages protocol's, as
// Vertex returns them.
import type { Probe } from './common.js';
import { MESSAGES_PROBES } from './messages-probes.js';
import { VERTEX_VERSION, vertexPath } from '../../src/protocols/vertex/index.js';

/** A messages body as a rawPredict body: `anthropic_version` first, no `model`. */
function asVertex(body: string): string {
  const { model: _model, ...rest } = JSON.parse(body) as Record<string, unknown>;
  return JSON.stringify({ anthropic_version: VERTEX_VERSION, ...rest });
}

export const VERTEX_PROBES: readonly Probe[] = MESSAGES_PROBES.map((p) => ({
  ...p,
  body: (model: string, stream: boolean) => asVertex(p.body(model, stream)),
  path: (model: string, stream: boolean) => vertexPath(model, stream),
}));
