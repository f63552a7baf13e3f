// The readiness gate: before any check, the minimal request of each declared protocol goes
// through the gateway, and the run waits until the gateway has forwarded one of each to the
// recording upstream (the probe loop of src/client/forwarded.ts). A gateway still starting, or a
// proxy that marks its upstream dead for its first seconds (answering its own 502), is waited
// for instead of failing the first checks; a gateway that never forwards is diagnosed in one
// line within the time-out.
import { performance } from 'node:perf_hooks';
import type { Protocol } from '../core/protocols.js';
import { HarnessError } from '../core/errors.js';
import type { GatewayClient } from '../client/gateway.js';
import { answerLine, probeRequest, untilForwarded } from '../client/forwarded.js';
import type { Upstream } from '../upstream/upstream.js';
import type { Reply } from '../upstream/scenario.js';

// What the gate found is part of the report: its types live with the report's.
import type { CanaryAnswer, ProtocolReadiness, Readiness } from '../report/shared/readiness.js';
import { plural } from '../core/words.js';
export type { CanaryAnswer, ProtocolReadiness, Readiness };

/** Backoff between canaries the gateway answered without forwarding: polling a remote system, bounded. */
const BACKOFF_MS = [50, 100, 200, 400, 800, 1000];
/**
 * A setup mistake answers the same every time (a wrong base path: the same 404; a gateway
 * forwarding to another port: the same 502, and nothing reaches the recording upstream). After
 * this long and this many identical answers, the gate says so instead of waiting out its bound.
 * A gateway still starting, or whose health checks have not passed yet, answers 5xx while its
 * checks reach the upstream, or changes its answer: it is waited for.
 */
const SETTLE_MS = 5000;
const SETTLE_ANSWERS = 6;

/** The identity of an answer: status, content type, first bytes, error. */
const answerKey = (a: CanaryAnswer) => JSON.stringify([a.status, a.contentType, a.firstBytes, a.error]);

/** A predicate that is true once every answer so far is the same one, a 4xx, or a 5xx or no answer while nothing reached the upstream. */
function settles(nothingArrived: () => boolean): (a: CanaryAnswer) => boolean {
  let first: string | undefined;
  let same = 0;
  return (a) => {
    const key = answerKey(a);
    first ??= key;
    same = key === first ? same + 1 : Number.NEGATIVE_INFINITY;
    if (same < SETTLE_ANSWERS || a.atMs < SETTLE_MS || a.forwarded) return false;
    return a.status !== null && a.status >= 400 && a.status < 500 ? true : nothingArrived();
  };
}

/**
 * A target aimed at the protocol's own first segment (`--target http://host:port/v1`, or
 * `--base-path messages=/v1`) is sent `/v1/v1/messages`; a gateway that forwards the path as it
 * came hands the doubled prefix to the upstream, and every check would blame the gateway for it.
 * Seen on the canary the upstream received, it is refused in one line.
 */
export function refuseDoubledPrefix(gateway: GatewayClient, protocol: Protocol, upstreamUrl: string): void {
  const { path } = probeRequest(protocol);
  const aimed = gateway.aimed(path).split('?')[0];
  const sent = new URL(gateway.url(path)).pathname;
  const prefix = sent.endsWith(aimed) ? sent.slice(0, sent.length - aimed.length) : '';
  const segments = aimed.split('/').filter(Boolean);
  // The longest run of the protocol path's first segments that the prefix ends with (/v1, /v1beta, /openai/v1 ...).
  const doubled = segments.map((_, i) => `/${segments.slice(0, segments.length - 1 - i).join('/')}`).find((lead) => lead !== '/' && prefix.endsWith(lead));
  const received = upstreamUrl.split('?')[0];
  if (!doubled || !received.includes(`${doubled}${aimed}`)) return;
  const inTarget = gateway.base.pathname.replace(/\/+$/, '').endsWith(doubled);
  throw new HarnessError(
    'BAD_TARGET',
    `the ${protocol} canary was sent to ${sent} and the upstream received POST ${received}: the harness adds the protocol's path (${aimed}) itself, so drop ${doubled} from ${inTarget ? `--target (--target ${gateway.base.origin}${gateway.base.pathname.replace(/\/+$/, '').slice(0, -doubled.length) || '/'})` : `--base-path ${protocol}=...`}`,
  );
}

/**
 * Waits until the gateway has forwarded a canary of every protocol in `protocols`, bounded by
 * `timeoutMs`. Throws a one-line HarnessError (exit 2) when one never is.
 */
export async function awaitReady(
  gateway: GatewayClient,
  upstream: Upstream,
  protocols: readonly Protocol[],
  opts: { timeoutMs: number; print?: (s: string) => void; onAnswer?: (protocol: Protocol, answer: CanaryAnswer) => void },
): Promise<Readiness> {
  const t0 = performance.now();
  const strayBefore = upstream.unmatched.length;
  opts.print?.(`waiting up to ${Math.round(opts.timeoutMs / 1000)} s for the gateway to forward a canary request (${protocols.join(', ')}) to the recording upstream ${upstream.url}`);
  const up = { register: (reply: Reply) => upstream.expect(reply), done: (token: string) => upstream.release(token), ready: () => upstream.sync?.() ?? Promise.resolve() };
  const nothingArrived = () => upstream.unmatched.length === strayBefore;
  const probed = await Promise.all(
    protocols.map(async (p) => ({ protocol: p, ...(await untilForwarded(gateway, up, p, { timeoutMs: opts.timeoutMs, startedAt: t0, pausesMs: BACKOFF_MS, settled: settles(nothingArrived), onAnswer: opts.onAnswer && ((a) => opts.onAnswer!(p, a)) })) })),
  );
  for (const r of probed) if (r.ready && r.upstreamUrl) refuseDoubledPrefix(gateway, r.protocol, r.upstreamUrl);
  // The forwarded URL stays out of the report: a ?key= credential may be in it.
  const protocolsReady: ProtocolReadiness[] = probed.map(({ upstreamUrl: _url, ...r }) => r);
  const readiness: Readiness = { timeoutMs: opts.timeoutMs, waitedMs: Math.round(performance.now() - t0), ready: protocolsReady.every((r) => r.ready), protocols: protocolsReady };
  const stuck = protocolsReady.find((r) => !r.ready);
  if (stuck) {
    const { path } = probeRequest(stuck.protocol);
    const last = stuck.answers.at(-1);
    // Stopped before the bound: the same answer every time (settles above).
    const early = readiness.waitedMs < opts.timeoutMs - 1000;
    const inTime = `in ${Math.round((early ? readiness.waitedMs : opts.timeoutMs) / 1000)} s`;
    const same = early ? `; the same answer every time, so the gate stopped before its ${Math.round(opts.timeoutMs / 1000)} s` : '';
    // The gateway answers with its own 5xx (it cannot reach its upstream), yet no request of any
    // kind reached the recording upstream: it forwards elsewhere. A 4xx points at the path, headers
    // or credential instead, and gets the hint below with the gateway's own words.
    const nothingArrived = protocolsReady.every((r) => !r.ready) && upstream.unmatched.length === strayBefore;
    if (nothingArrived && last?.status && last.status >= 500)
      throw new HarnessError(
        'NOT_READY',
        `gateway not ready: ${inTime} the gateway answers (${stuck.protocol} canary POST ${gateway.url(path)}: ${plural(stuck.attempts, 'try', 'tries')}, the last ${answerLine(last)}) but nothing reached the recording upstream at ${upstream.url}${same}: is its upstream set to ${upstream.url}? (--upstream-listen sets this address)`,
      );
    const hint =
      last?.status && last.status >= 400 && last.status < 500
        ? ` (a ${last.status}: check the protocol's base path, headers and credential: --base-path, --header)`
        : '';
    throw new HarnessError(
      'NOT_READY',
      `gateway not ready: ${inTime} no ${stuck.protocol} canary (POST ${gateway.url(path)}) reached the recording upstream; ${plural(stuck.attempts, 'try', 'tries')}, the last answered ${answerLine(last)}${hint}${same}; is its upstream set to ${upstream.url}?`,
    );
  }
  opts.print?.(`gateway ready: forwarded ${protocols.join(', ')} after ${readiness.waitedMs} ms`);
  return readiness;
}
