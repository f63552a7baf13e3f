import { defineCheck } from '../../src/check/check.js';
import { capabilityMatrix } from './common.js';
import { CHAT_PROBES } from './other-probes.js';

export default defineCheck({
  id: 'capabilities.chat',
  title: 'Capability matrix of the chat protocol: which features pass through intact, per route, JSON and streamed',
  requirements: ['CAP-1'],
  level: 'INFO',
  protocol: 'chat',
  requirement: 'Each feature beyond protocol compatibility reaches the upstream and comes back intact on every route, JSON and streamed, or the gateway refuses it explicitly.',
  fix: 'Forward `tools`, `tool_choice`, tool messages, image parts and `response_format` as received, and pass `tool_calls` (streamed as deltas) and JSON content back unchanged. Refuse a feature you do not carry with a JSON 400 that names it.',
  run: (ctx) => capabilityMatrix(ctx, 'chat', CHAT_PROBES),
});
