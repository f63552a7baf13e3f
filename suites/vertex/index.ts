// Anthropic models on Vertex AI (rawPredict, streamRawPredict, count-tokens:rawPredict) through a gateway.
import type { CheckDef } from '../../src/check/check.js';
import path from './vertex.path.preserved.js';
import body from './vertex.body.unchanged.js';
import headers from './vertex.headers.anthropic.js';
import incremental from './vertex.stream.incremental.js';
import complete from './vertex.stream.complete.js';
import count from './vertex.count-tokens.passthrough.js';
import errors from './vertex.errors.passthrough.js';
import oneCredential from './vertex.auth.one-credential.js';

export const VERTEX_CHECKS: CheckDef[] = [path, body, headers, incremental, complete, count, errors, oneCredential];
