import { defineCheck } from '../../src/check/check.js';
import { capabilityMatrix } from './common.js';
import { VERTEX_PROBES } from './vertex-probes.js';

export default defineCheck({
  id: 'capabilities.vertex',
  title: 'Capability matrix of the vertex protocol (rawPredict): which features pass through intact, per route, JSON and streamed',
  requirements: ['CAP-1', 'CAP-2', 'CAP-3'],
  level: 'INFO',
  protocol: 'vertex',
  requirement: 'Each feature beyond protocol compatibility reaches the upstream and comes back intact on every route, JSON and streamed, or the gateway refuses it explicitly.',
  fix: 'Forward the rawPredict body as received (image, document, thinking with its `signature`, tool_use and tool_result, `cache_control` with its `ttl`, server tools, deferred tools with `defer_loading`) and every `anthropic-beta` value, and pass the answer and the streamed events back unchanged, the `content_block_start` of every block (the result blocks of server tools too) before its deltas and stop. Refuse a feature you do not carry with a JSON 400 that names it, never drop it silently.',
  run: (ctx) => capabilityMatrix(ctx, 'vertex', VERTEX_PROBES),
});
