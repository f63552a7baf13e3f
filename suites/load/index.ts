// The load profile's checks (--profile load): concurrency without cross-talk, streams under
// concurrency, slow answers beside fast ones, upstream 429/529 answers passed on, declared
// limits, the gateway's cost, and its memory over the requests it serves.
import type { CheckDef } from '../../src/check/check.js';
import attribution from './load.concurrency.attribution.js';
import streams from './load.streams.incremental.js';
import slow from './load.slow.isolation.js';
import refused from './load.limit.refused.js';
import retry from './load.limit.retry-after.js';
import cost from './load.perf.cost.js';
import upstreamErrors from './load.upstream.errors-pass.js';
import growth from './load.resources.growth.js';
import frontier from './load.perf.frontier.js';

export const LOAD_CHECKS: CheckDef[] = [attribution, streams, slow, upstreamErrors, refused, retry, cost, frontier, growth];
