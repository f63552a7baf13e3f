// The Bedrock InvokeModel protocol through a gateway: the model id in the path, the body with its
// betas, the AWS event-stream answer (valid messages, delivered as they come, an exception in
// it), the errors.
import type { CheckDef } from '../../src/check/check.js';
import path from './bedrock.path.model-id.js';
import body from './bedrock.body.unchanged.js';
import frames from './bedrock.stream.frames.js';
import incremental from './bedrock.stream.incremental.js';
import errors from './bedrock.errors.passthrough.js';
import exception from './bedrock.stream.exception.js';
import oneCredential from './bedrock.auth.one-credential.js';

export const BEDROCK_CHECKS: CheckDef[] = [path, body, frames, incremental, errors, exception, oneCredential];
