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
  run: (ctx) => capabilityMatrix(ctx, 'bedrock', BEDROCK_PROBES),
});
