// Model discovery (DISC-1 to DISC-7): GET /v1/models?limit=1000 as Claude Code sends it.
import type { CheckDef } from '../../src/check/check.js';
import json from './discovery.models.json.js';
import noRedirect from './discovery.models.no-redirect.js';
import latency from './discovery.models.latency.js';
import noLogin from './discovery.models.no-login.js';
import forwarded from './discovery.models.forwarded.js';
import stable from './discovery.models.stable.js';
import clientCache from './discovery.models.client-cache.js';
import shape from './discovery.models.shape.js';
import credentialCache from './discovery.models.credential-cache.js';
import current from './discovery.models.current.js';

export const DISCOVERY_CHECKS: CheckDef[] = [json, noRedirect, latency, noLogin, forwarded, stable, clientCache, shape, credentialCache, current];
