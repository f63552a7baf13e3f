// The reference gateway's translating route, where it starts: a messages request (POST
// /v1/messages) is rewritten in place as a chat-completions one (or, with `to: 'bedrock'`, a
// Bedrock InvokeModel one: bedrock.ts; with `to: 'vertex'`, a Vertex rawPredict one: vertex.ts),
// and the handler that maps its answer back is returned.
// A compressed body is decoded first (ENC-1). Other requests, and a body that is not JSON, pass
// through.
import type http from 'node:http';
import type { RequestParts, TranslateFault } from '../faults/types.js';
import { bedrockAnswer } from './bedrock-reply.js';
import { toBedrock } from './bedrock.js';
import { translatedAnswer } from './reply.js';
import { chatHeaders, chatRequest } from './request.js';
import { toVertex, vertexAnswer } from './vertex.js';
import { decodeRequestBody } from '../wire.js';

/** Writes the client's answer from the upstream's. */
export type Answerer = (ur: http.IncomingMessage, res: http.ServerResponse) => void;

/** With `fault` (null: not translating), rewrites a messages request as chat completions (or Bedrock InvokeModel) and returns its answer's handler. */
export function translated(parts: RequestParts, fault: TranslateFault | null): Answerer | undefined {
  if (!fault || parts.method !== 'POST' || !/^\/v1\/messages(\?|$)/.test(parts.path)) return undefined;
  let body: unknown;
  try {
    // A compressed body is decoded whole first: the translation forwards JSON of its own (ENC-1).
    if (!fault.passEncoded) decodeRequestBody(parts);
    body = JSON.parse(parts.body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (fault.to === 'bedrock') {
    toBedrock(parts, body, fault);
    return (ur, res) => bedrockAnswer(ur, res, fault);
  }
  if (fault.to === 'vertex') {
    toVertex(parts, body, fault);
    return vertexAnswer;
  }
  parts.path = '/v1/chat/completions';
  parts.headers = chatHeaders(parts.headers);
  parts.body = Buffer.from(JSON.stringify(chatRequest(body, fault)));
  return (ur, res) => translatedAnswer(ur, res, fault);
}
