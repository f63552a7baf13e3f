// The capability matrix of the Responses API: function calling and structured outputs, per route, JSON and streamed.
import { defineCheck } from '../../src/check/check.js';
import { capabilityMatrix } from './common.js';
import { RESPONSES_PROBES } from './responses-probes.js';

export default defineCheck({
  id: 'capabilities.responses',
  title: 'Capability matrix of the Responses API: which features pass through intact, per route, JSON and streamed',
  requirements: ['CAP-1'],
  level: 'INFO',
  protocol: 'responses',
  requirement: 'Each feature beyond protocol compatibility reaches the upstream and comes back intact on every route, JSON and streamed, or the gateway refuses it explicitly.',
  fix: 'Forward function tools, `tool_choice`, `function_call` and `function_call_output` input items and `text.format` as received, and pass `function_call` output items (their arguments streamed as deltas) and JSON text back unchanged. Refuse a feature you do not carry with a JSON 400 that names it.',
  run: (ctx) => capabilityMatrix(ctx, 'responses', RESPONSES_PROBES),
});
