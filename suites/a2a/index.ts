// A2A (Agent2Agent) through a gateway: the endpoint (message/send), the agent card's route and a task streamed by
// message/stream, incrementally and whole (docs/mcp.md). They run on every gateway; where the
// gateway does not declare a2a, what they find is info (undeclared: 'info').
import type { CheckDef } from '../../src/check/check.js';
import path from './a2a.path.forwarded.js';
import card from './a2a.card.reachable.js';
import incremental from './a2a.stream.incremental.js';
import whole from './a2a.stream.whole.js';

export const A2A_CHECKS: CheckDef[] = [path, card, incremental, whole];
