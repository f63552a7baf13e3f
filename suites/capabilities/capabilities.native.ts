import { defineCheck } from '../../src/check/check.js';
import { capabilityMatrix } from './common.js';
import { NATIVE_PROBES } from './other-probes.js';

export default defineCheck({
  id: 'capabilities.native',
  title: 'Capability matrix of the native protocol: which features pass through intact, per route, JSON and streamed',
  requirements: ['CAP-1'],
  level: 'INFO',
  protocol: 'native',
  requirement: 'Each feature beyond protocol compatibility reaches the upstream and comes back intact on every route, JSON and streamed, or the gateway refuses it explicitly.',
  fix: 'Forward `tools` (function declarations), function call and response parts and `inlineData` parts as received, and pass `functionCall` parts back unchanged. Refuse a feature you do not carry with a JSON 400 that names it.',
  run: (ctx) => capabilityMatrix(ctx, 'native', NATIVE_PROBES),
});
