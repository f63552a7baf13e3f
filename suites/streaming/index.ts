// The streaming suite (SSE delivery, framing, long and silent streams, cancellation).
import type { CheckDef } from '../../src/check/check.js';
import incremental from './streaming.delivery.incremental.js';
import latency from './streaming.delivery.latency.js';
import events from './streaming.frame.events.js';
import bytes from './streaming.frame.bytes.js';
import contentType from './streaming.headers.content-type.js';
import idle from './streaming.idle.tolerance.js';
import idleDefault from './streaming.idle.default.js';
import long from './streaming.long.complete.js';
import errorEvent from './streaming.error-event.js';
import abort from './streaming.abort.cancels-upstream.js';
import persistent from './streaming.connection.persistent.js';
import usage from './streaming.usage.cache-fields.js';
import keepalive from './streaming.keepalive.ping.js';
import cut from './streaming.cut.no-clean-end.js';
import longDuration from './streaming.long.duration.js';

export const STREAMING_CHECKS: CheckDef[] = [incremental, latency, events, bytes, contentType, long, errorEvent, abort, persistent, usage, idleDefault, idle, keepalive, cut, longDuration];
