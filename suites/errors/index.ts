// Error passthrough and HTTP hygiene: upstream errors and retry guidance, retries of
// an invalid model, an unreachable, resetting or silent upstream, recovery after an outage, large bodies, HEAD /, what crosses from one upstream to another on a fallback.
import type { CheckDef } from '../../src/check/check.js';
import status from './errors.passthrough.status.js';
import retryHeaders from './errors.passthrough.retry-headers.js';
import invalidModel from './errors.retry.invalid-model.js';
import unreachable from './errors.upstream.unreachable.js';
import reset from './errors.upstream.reset.js';
import timeout from './errors.upstream.timeout.js';
import recovers from './errors.upstream.recovers.js';
import badKey from './errors.auth.bad-key.js';
import large from './errors.body.large.js';
import head from './errors.probe.head-root.js';
import headAsGet from './errors.probe.head-as-get.js';
import sizeLimit from './errors.body.size-limit.js';
import clientErrors from './errors.retry.client-errors.js';
import fallbackIsolated from './errors.fallback.isolated.js';
import idleClose from './errors.upstream.idle-close.js';
import postOnce from './errors.retry.post-once.js';
import postTimeout from './errors.retry.post-timeout.js';

export const ERRORS_CHECKS: CheckDef[] = [status, retryHeaders, invalidModel, unreachable, reset, timeout, badKey, large, head, recovers, headAsGet, sizeLimit, clientErrors, fallbackIsolated, idleClose, postOnce, postTimeout];
