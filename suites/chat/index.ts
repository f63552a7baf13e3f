// The chat-completions (OpenAI-compatible) protocol through a gateway.
import type { CheckDef } from '../../src/check/check.js';
import path from './chat.path.preserved.js';
import body from './chat.body.semantic.js';
import content from './chat.response.content.js';
import bearer from './chat.auth.bearer.js';
import badKey from './chat.auth.bad-key.js';
import incremental from './chat.stream.incremental.js';
import complete from './chat.stream.complete.js';
import errors from './chat.errors.passthrough.js';
import usage from './chat.usage.passthrough.js';
import successHeaders from './chat.headers.success-passthrough.js';
import batches from './chat.batches.not-found.js';

export const CHAT_CHECKS: CheckDef[] = [path, body, content, bearer, badKey, incremental, complete, errors, usage, successHeaders, batches];
