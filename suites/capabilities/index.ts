// The capability matrix's checks, one per protocol (run with --capabilities or --require-capability).
import type { CheckDef } from '../../src/check/check.js';
import chat from './capabilities.chat.js';
import messages from './capabilities.messages.js';
import native from './capabilities.native.js';
import responses from './capabilities.responses.js';

export const CAPABILITIES_CHECKS: CheckDef[] = [messages, chat, native, responses];
