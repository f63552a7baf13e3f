// The explicit list of checks, one list per area (each area's index.ts names its checks).
import type { CheckDef } from '../src/core/check.js';
import { MESSAGES_CHECKS } from './messages/index.js';

export const CHECKS: CheckDef[] = [...MESSAGES_CHECKS];
