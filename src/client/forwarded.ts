// The probe loop: send a protocol's minimal request through the gateway until the recording
// upstream is seen to receive it, bounded in time, keeping what the gateway answered meanwhile
// as the diagnosis. The readiness gate waits with it before any check (a gateway still starting,
// or a proxy that marks its upstream dead for its first seconds); after an upstream outage the
// runner waits with it until the gateway serves again, and errors.upstream.recovers measures
// that same wait as a verdict. Here, below the runner, so a check can use it too.
import { performance } from 'node:perf_hooks';
import { DEFAULT_MODEL, minimalRequest, RECORDS, type Protocol, jsonReply } from '../protocols/index.js';
import { CASE_PLACEHOLDER, withToken } from '../upstream/contract.js';
import type { Expectation } from '../upstream/upstream.js';
import type { Reply } from '../upstream/scenario.js';
import type { GatewayClient, GwResponse } from './gateway.js';
import { maskCut } from '../core/mask.js';

/** What the gateway answered to one probe. */
export interface ProbeAnswer {
  /** Milliseconds since the wait started. */
  atMs: number;
  forwarded: boolean;
  status: number | null;
  contentType: string | null;
  /** The first bytes of the answer, as text (inert: reporters escape it). */
  firstBytes: string | null;
  /** Why there was no answer (refused, time-out). */
  error: string | null;
}

export interface Forwarded {
  ready: boolean;
  attempts: number;
  /** Until the first probe that counted (or the bound). */
  waitedMs: number;
  /** The first and the last few answers (`answersTotal` says how many there were). */
  answers: ProbeAnswer[];
  answersTotal: number;
  /** The protocol the forwarded probe reached the upstream in: another than the probe's when the gateway translates. */
  upstreamProtocol?: Protocol;
  /** The path (with query) the forwarded probe reached the upstream at: for a diagnosis, never for a report (a ?key= credential may be in it). */
  upstreamUrl?: string;
}

/** Where the probe's reply is registered with the recording upstream; `done` ends its case. */
export interface ProbeUpstream {
  register(reply: Reply): Expectation;
  done(token: string): void;
  /** The registered reply is in effect (an upstream in another process: Upstream.sync). */
  ready?(): Promise<void>;
}

export interface ForwardedOptions {
  /** Bound of the whole wait, from `startedAt` (default: now). */
  timeoutMs: number;
  startedAt?: number;
  /** Also needs a 2xx answer to the forwarded probe (the gateway serves again), not only the forwarding. */
  served?: boolean;
  /** Pauses between two probes, the last one repeated: polling a remote system, bounded. */
  pausesMs: readonly number[];
  /** Longest wait for one probe's answer (default: until the bound). */
  answerMs?: number;
  signal?: AbortSignal;
  /** Progress: each answer as it comes (the console shows the last one while the wait goes on). */
  onAnswer?: (a: ProbeAnswer) => void;
  /** Ends the wait early, not ready, when it says the answers so far will not change (a setup mistake). */
  settled?: (a: ProbeAnswer) => boolean;
}

const FIRST_BYTES = 200;
const KEPT_FIRST = 2;
const KEPT_LAST = 4;
/** How long the answer to a forwarded probe is waited for (it is kept for the report). */
const AFTER_FORWARD_MS = 5000;
const bounded = (ms: number) => new Promise<undefined>((r) => setTimeout(() => r(undefined), ms).unref());

const PROBE_TEXT = `${CASE_PLACEHOLDER} gw-conformance readiness canary: say ok.`;

/** The minimal request of a protocol, as the probe sends it (the case placeholder stands for the token). */
export const probeRequest = (p: Protocol) => minimalRequest(p, { text: PROBE_TEXT, maxTokens: 8 });

/** The reply the recording upstream gives a probe: a plain success of the protocol (its record writes it). */
function probeReply(p: Protocol): Reply {
  const r = RECORDS[p].replies;
  return { ...jsonReply(r, r.answer({ model: DEFAULT_MODEL[p], text: 'ok', toolCalls: [], stop: 'end', usage: { input: 12, output: 1 } })), protocol: p };
}

function describeError(e: unknown): string {
  const err = e as { code?: string; message?: string; name?: string };
  return String(err.code ?? err.name ?? 'error') === 'GatewayTimeoutError' ? 'no answer (time-out)' : maskCut(`${err.message ?? String(e)}`.split('\n')[0], 200);
}

type Sent = { res: GwResponse; err?: undefined } | { res?: undefined; err: unknown };

/** One probe: what the gateway answered, and whether the upstream received it. */
async function probeOnce(gateway: GatewayClient, up: ProbeUpstream, p: Protocol, deadline: number, o: ForwardedOptions): Promise<{ answer: Sent | undefined; forwarded: boolean; upstreamProtocol?: Protocol; upstreamUrl?: string }> {
  const remaining = deadline - performance.now();
  const req = probeRequest(p);
  const e = up.register(probeReply(p));
  await up.ready?.();
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), Math.max(1, o.answerMs ?? remaining));
  const onAbort = () => ac.abort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const sent: Promise<Sent> = gateway.send({ ...req, body: withToken(req.body, e.token), caseToken: e.token, signal: ac.signal }).then(
      (res) => ({ res }),
      (err: unknown) => ({ err }),
    );
    // Forwarded is what counts: the gateway's answer may come later, or never.
    const watch = Math.max(1, Math.min(remaining, o.answerMs ?? remaining));
    const first = await Promise.race([e.received(watch).then((r) => (r ? 'forwarded' : 'deadline')), sent.then(() => 'answered')]);
    const answer = first === 'forwarded' ? await Promise.race([sent, bounded(o.answerMs ?? Math.min(AFTER_FORWARD_MS, Math.max(1, deadline - performance.now())))]) : await sent;
    const ok = answer?.res !== undefined && answer.res.status >= 200 && answer.res.status < 300;
    // A failed answer fails a wait for service whatever reached the upstream: no grace for the record then.
    const forwarded = first === 'forwarded' || (o.served && !ok ? e.hits.length > 0 : (await e.received(ok ? 1000 : 200)) !== null);
    if (first === 'forwarded' && !answer) ac.abort();
    const upstreamProtocol = e.hits[0]?.routedAs;
    const upstreamUrl = e.hits[0]?.url;
    return { answer, forwarded, ...(upstreamProtocol ? { upstreamProtocol } : {}), ...(upstreamUrl ? { upstreamUrl } : {}) };
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onAbort);
    up.done(e.token);
  }
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const end = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', end);
      resolve();
    };
    const t = setTimeout(end, ms);
    signal?.addEventListener('abort', end, { once: true });
  });
}

/**
 * Sends protocol `p`'s minimal request until the recording upstream receives one (and, with
 * `served`, the gateway answers it 2xx), the bound passes or `signal` aborts.
 */
export async function untilForwarded(gateway: GatewayClient, up: ProbeUpstream, p: Protocol, o: ForwardedOptions): Promise<Forwarded> {
  const t0 = o.startedAt ?? performance.now();
  const deadline = t0 + o.timeoutMs;
  const answers: ProbeAnswer[] = [];
  let total = 0;
  let upstreamProtocol: Protocol | undefined;
  let upstreamUrl: string | undefined;
  const result = (ready: boolean, attempts: number, waitedMs: number): Forwarded => ({ ready, attempts, waitedMs, answers, answersTotal: total, ...(upstreamProtocol ? { upstreamProtocol } : {}), ...(upstreamUrl ? { upstreamUrl } : {}) });
  for (let attempt = 1; ; attempt++) {
    if (o.signal?.aborted) return result(false, attempt - 1, Math.round(performance.now() - t0));
    const { answer, forwarded, ...route } = await probeOnce(gateway, up, p, deadline, o);
    upstreamProtocol = route.upstreamProtocol ?? upstreamProtocol;
    upstreamUrl = route.upstreamUrl ?? upstreamUrl;
    const at = Math.round(performance.now() - t0);
    total++;
    const seen: ProbeAnswer = {
      atMs: at,
      forwarded,
      status: answer?.res?.status ?? null,
      contentType: answer?.res?.header('content-type') ?? null,
      firstBytes: answer?.res ? answer.res.body.subarray(0, FIRST_BYTES).toString('utf8') : null,
      error: !answer ? 'forwarded; no answer yet' : answer.err === undefined ? null : describeError(answer.err),
    };
    answers.push(seen);
    o.onAnswer?.(seen);
    if (answers.length > KEPT_FIRST + KEPT_LAST) answers.splice(KEPT_FIRST, 1);
    const status = answer?.res?.status ?? 0;
    if (forwarded && (!o.served || (status >= 200 && status < 300))) return result(true, attempt, at);
    if (o.settled?.(seen)) return result(false, attempt, at);
    const wait = o.pausesMs[Math.min(attempt - 1, o.pausesMs.length - 1)];
    if (o.signal?.aborted || performance.now() + wait >= deadline) return result(false, attempt, at);
    await pause(wait, o.signal);
  }
}

/** One line on what the gateway answered instead of forwarding, escaped. */
export function answerLine(a: ProbeAnswer | undefined): string {
  if (!a) return 'nothing';
  if (a.status === null) return a.error ?? 'nothing';
  const bytes = a.firstBytes ? ` ${JSON.stringify(maskCut(a.firstBytes, 200))}` : ' (empty body)';
  return `${a.status} ${a.contentType ?? '(no content-type)'}${bytes}`;
}

/** A wait for the gateway to serve again after an upstream outage: the runner's evidence, errors.upstream.recovers' verdict. */
export interface Recovery {
  /** True when a probe was forwarded to the upstream and answered 2xx within the bound. */
  serving: boolean;
  /** From the start of the wait to the first forwarded, successful probe (or to the bound). */
  ms: number;
  attempts: number;
  /** What the last probe got, in words (status, or the transport error). */
  last: string;
}

/** Time between two probes: a gateway re-checks its backend on a timer, not on an event we could wait for. */
const RECOVERY_PAUSE_MS = 100;
/** Longest wait for one probe's answer. */
const RECOVERY_ANSWER_MS = 2000;

/**
 * Sends the messages probe until one is forwarded and answered 2xx, or `boundMs` has passed (or
 * `signal` aborts). Bounded: never waits past `boundMs` plus one probe's answer time.
 */
export async function untilServingAgain(gateway: GatewayClient, up: ProbeUpstream, opts: { boundMs: number; signal?: AbortSignal }): Promise<Recovery> {
  const r = await untilForwarded(gateway, up, 'messages', { timeoutMs: opts.boundMs, served: true, pausesMs: [RECOVERY_PAUSE_MS], answerMs: RECOVERY_ANSWER_MS, signal: opts.signal });
  const a = r.answers.at(-1);
  const last = !a ? 'no probe sent' : a.status === null ? (a.error ?? 'no answer') : `${a.status}${a.forwarded ? '' : ' (not forwarded)'}`;
  return { serving: r.ready, ms: r.waitedMs, attempts: r.attempts, last };
}
