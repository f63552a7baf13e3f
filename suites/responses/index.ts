// The Responses API (OpenAI, POST /v1/responses) through a gateway.
import type { CheckDef } from '../../src/check/check.js';
import path from './responses.path.preserved.js';
import body from './responses.body.semantic.js';
import encoded from './responses.body.encoded.js';
import events from './responses.stream.events.js';
import incremental from './responses.stream.incremental.js';
import failed from './responses.stream.failed.js';
import requested from './responses.stream.requested.js';
import errors from './responses.errors.passthrough.js';
import usage from './responses.usage.details.js';
import compactRoute from './responses.compact.route.js';
import compactItem from './responses.compact.stream-item.js';
import stored from './responses.state.stored.js';
import clientHeaders from './responses.headers.client.js';
import codexCatalog from './responses.catalog.codex.js';
import affinity from './responses.state.affinity.js';

export const RESPONSES_CHECKS: CheckDef[] = [path, body, encoded, events, incremental, failed, requested, errors, usage, compactRoute, compactItem, stored, clientHeaders, codexCatalog, affinity];
