import { defineCheck } from '../../src/check/check.js';
import { capabilityMatrix } from './common.js';
import { BEDROCK_PROBES } from './bedrock-probes.js';

export default defineCheck({
  id: 'capabilities.bedrock',
  title: 'Capability matrix of the Bedrock InvokeModel protocol: which features pass through intact, per route, JSON and streamed',
  requirements: ['CAP-1'],
  level: 'INFO',
  protocol: 'bedrock',
  requirement: 'Each feature beyond protocol compatibility reaches the upstream and comes back intact on every route, JSON and streamed, or the gateway refuses it explicitly.',
  fix: 'Forward the InvokeModel body as received (image, document, thinking with its `signature`, tool_use and tool_result, `cache_control`, citations, `anthropic_beta` in the body), and pass the answer and its event-stream messages through unchanged. Refuse a feature you do not carry with a JSON error that names it.',
  run: (ctx) => capabilityMatrix(ctx, 'bedrock', BEDROCK_PROBES),
});
