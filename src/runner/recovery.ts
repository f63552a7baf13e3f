// Waiting until a gateway forwards again after an outage of its upstream (ERR-RECOVER-1). A
// gateway may keep its backend marked "down" for a while after the upstream refused it; the
// runner waits for it after every outage window, so no later check meets that state, and
// errors.upstream.recovers measures the same wait as a verdict.
import { performance } from 'node:perf_hooks';
import type { GatewayClient } from '../client/gateway.js';
import type { Expectation } from '../upstream/upstream.js';
import type { Reply } from '../upstream/scenario.js';
import { JSON_HEADERS } from '../upstream/scenario.js';
import { messageBody } from '../upstream/replies/messages.js';

/** The model of the probe request (any model the recording upstream answers). */
const PROBE_MODEL = 'claude-sonnet-4-5-20250929';
/** Time between two probe requests: a gateway re-checks its backend on a timer, not on an event we could wait for. */
const PROBE_INTERVAL_MS = 100;
/** Longest wait for one probe's answer. */
const PROBE_ANSWER_MS = 2000;

export interface Recovery {
  /** True when a probe was forwarded to the upstream and answered 2xx within the bound. */
  serving: boolean;
  /** From the start of the wait to the first forwarded, successful probe (or to the bound). */
  ms: number;
  attempts: number;
  /** What the last probe got, in words (status, or the transport error). */
  last: string;
}

export interface RecoveryProbe {
  gateway: GatewayClient;
  /** Registers the probe's reply with the recording upstream; `done` ends the case. */
  register(reply: Reply): Expectation;
  done(token: string): void;
}

/** One probe request: true when the upstream received it and the client got a 2xx. */
async function probeOnce(p: RecoveryProbe, signal: AbortSignal): Promise<{ ok: boolean; what: string }> {
  const e = p.register({ kind: 'json', status: 200, headers: JSON_HEADERS, body: messageBody() });
  const body = JSON.stringify({ model: PROBE_MODEL, max_tokens: 16, messages: [{ role: 'user', content: `${e.token} are you serving again?` }] });
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), PROBE_ANSWER_MS);
  const onAbort = () => ac.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const res = await p.gateway.messages(body, { caseToken: e.token, signal: ac.signal });
    const forwarded = e.hits.length > 0;
    return { ok: forwarded && res.status >= 200 && res.status < 300, what: `${res.status}${forwarded ? '' : ' (not forwarded)'}` };
  } catch (err) {
    return { ok: false, what: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    p.done(e.token);
  }
}

/**
 * Sends a small messages request until one is forwarded and answered 2xx, or `boundMs` has
 * passed (or `signal` aborts). Bounded: never waits past `boundMs` plus one probe's answer time.
 */
export async function untilForwarding(p: RecoveryProbe, opts: { boundMs: number; signal?: AbortSignal }): Promise<Recovery> {
  const t0 = performance.now();
  const signal = opts.signal ?? new AbortController().signal;
  let attempts = 0;
  let last = 'no probe sent';
  while (!signal.aborted) {
    attempts++;
    const r = await probeOnce(p, signal);
    last = r.what;
    const ms = Math.round(performance.now() - t0);
    if (r.ok) return { serving: true, ms, attempts, last };
    if (ms >= opts.boundMs) break;
    await new Promise<void>((resolve) => {
      const onAbort = () => {
        clearTimeout(t);
        resolve();
      };
      const t = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, Math.min(PROBE_INTERVAL_MS, opts.boundMs - ms));
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
  return { serving: false, ms: Math.round(performance.now() - t0), attempts, last };
}
