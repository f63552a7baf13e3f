// The service profile (SVC-1..4): the hosted service checked directly, with no recording
// upstream (`--profile service`). Adding a check means adding it here.
import type { CheckDef } from '../../src/check/check.js';
import messages from './service.messages.answers.js';
import native from './service.native.answers.js';
import chat from './service.chat.answers.js';
import badKey from './service.auth.bad-key.js';
import models from './service.models.list.js';
import noText from './service.native.no-text.js';

export const SERVICE_CHECKS: CheckDef[] = [messages, native, chat, badKey, models, noText];
