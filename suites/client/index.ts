// The client profile (--profile client): real clients compared straight and through the gateway.
import type { CheckDef } from '../../src/check/check.js';
import sameRequests from './client.upstream.same-requests.js';
import sameAnswers from './client.answers.same.js';
import noDelay from './client.timing.no-added-delay.js';

export const CLIENT_CHECKS: CheckDef[] = [sameRequests, sameAnswers, noDelay];
