import { defineCheck } from '../../src/check/check.js';
import { capabilityMatrix } from './common.js';
import { MESSAGES_PROBES } from './messages-probes.js';

export default defineCheck({
  id: 'capabilities.messages',
  title: 'Capability matrix of the messages protocol: which features pass through intact, per route, JSON and streamed',
  requirements: ['CAP-1'],
  level: 'INFO',
  protocol: 'messages',
  requirement: 'Each feature beyond protocol compatibility reaches the upstream and comes back intact on every route, JSON and streamed, or the gateway refuses it explicitly.',
  run: (ctx) => capabilityMatrix(ctx, 'messages', MESSAGES_PROBES),
});
