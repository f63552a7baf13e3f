import { defineCheck } from '../../src/check/check.js';
import { capabilityMatrix } from './common.js';
import { MESSAGES_PROBES } from './messages-probes.js';

export default defineCheck({
  id: 'capabilities.messages',
  title: 'Capability matrix of the messages protocol: which features pass through intact, per route, JSON and streamed',
  requirements: ['CAP-1', 'CAP-2', 'CAP-3'],
  level: 'INFO',
  protocol: 'messages',
  requirement: 'Each feature beyond protocol compatibility reaches the upstream and comes back intact on every route, JSON and streamed, or the gateway refuses it explicitly.',
  fix: 'Forward every content block and field as received (image, document, thinking with its `signature`, redacted_thinking, tool_use and tool_result, `cache_control` with its `ttl`, server tools, deferred tools with `defer_loading` beside the `tool_choice` that names them) and every `anthropic-beta` value; pass the answer through unchanged, streamed deltas (`input_json_delta`, `signature_delta`, `citations_delta`) and usage fields included, and every `content_block_start` of a block type you do not know (server_tool_use, `*_tool_result`, tool search results) forwarded before its deltas and stop. A feature the gateway will not carry is refused with a JSON 400 that names it, never dropped silently.',
  run: (ctx) => capabilityMatrix(ctx, 'messages', MESSAGES_PROBES),
});
