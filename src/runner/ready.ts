// The readiness gate: before any check, a canary request per declared protocol goes through
// the gateway, and the run waits until the gateway has forwarded one of each to the recording
// upstream. A gateway still starting, or a proxy that marks its upstream dead for its first
// seconds (answering its own 502), is waited for instead of failing the first checks; a
// gateway that never forwards is diagnosed in one line within the time-out.
import { performance } from 'node:perf_hooks';
import type { Protocol } from '../core/features.js';
import { HarnessError } from '../core/errors.js';
import type { GatewayClient, GwRequest, GwResponse } from '../client/gateway.js';
import { CASE_PLACEHOLDER, withToken } from '../upstream/contract.js';
import type { Upstream } from '../upstream/upstream.js';
import { JSON_HEADERS, type Reply } from '../upstream/scenario.js';
import { messageBody } from '../upstream/replies/messages.js';
import { nativeJsonReply, nativeResponse, NATIVE_MODEL } from '../upstream/replies/native.js';
import { chatCompletion, chatJsonReply } from '../upstream/replies/chat.js';

// What the gate found is part of the report: its types live with the report's.
import type { CanaryAnswer, ProtocolReadiness, Readiness } from '../report/readiness.js';
export type { CanaryAnswer, ProtocolReadiness, Readiness };

const FIRST_BYTES = 200;
const KEPT_FIRST = 2;
const KEPT_LAST = 4;
/** Backoff between canaries the gateway answered without forwarding: polling a remote system, bounded. */
const BACKOFF_MS = [50, 100, 200, 400, 800, 1000];

/** How long the answer to a forwarded canary is waited for (it is kept for the report). */
const AFTER_FORWARD_MS = 5000;
const bounded = (ms: number) => new Promise<undefined>((r) => setTimeout(() => r(undefined), ms).unref());

const CANARY_TEXT = `${CASE_PLACEHOLDER} gw-conformance readiness canary: say ok.`;

function canary(p: Protocol): { req: Omit<GwRequest, 'body' | 'caseToken' | 'signal'>; body: string; reply: Reply } {
  if (p === 'native')
    return {
      req: { method: 'POST', path: `/v1beta/models/${NATIVE_MODEL}:generateContent`, auth: 'x-goog-api-key', headers: [['content-type', 'application/json']] },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: CANARY_TEXT }] }], generationConfig: { maxOutputTokens: 8 } }),
      reply: nativeJsonReply(nativeResponse()),
    };
  if (p === 'chat')
    return {
      req: { method: 'POST', path: '/v1/chat/completions', auth: 'bearer', headers: [['content-type', 'application/json']] },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: CANARY_TEXT }], max_tokens: 8 }),
      reply: chatJsonReply(chatCompletion()),
    };
  return {
    req: { method: 'POST', path: '/v1/messages', auth: 'bearer', headers: [['content-type', 'application/json'], ['anthropic-version', '2023-06-01']] },
    body: JSON.stringify({ model: 'claude-sonnet-4-5-20250929', max_tokens: 8, messages: [{ role: 'user', content: CANARY_TEXT }] }),
    reply: { kind: 'json', status: 200, headers: JSON_HEADERS, body: messageBody() },
  };
}

function describeError(e: unknown): string {
  const err = e as { code?: string; message?: string; name?: string };
  return String(err.code ?? err.name ?? 'error') === 'GatewayTimeoutError' ? 'no answer (time-out)' : `${err.message ?? String(e)}`.split('\n')[0].slice(0, 200);
}

/** One protocol: canaries until one is forwarded or the deadline passes. */
async function gateOne(gateway: GatewayClient, upstream: Upstream, p: Protocol, t0: number, deadline: number): Promise<ProtocolReadiness> {
  const { req, body, reply } = canary(p);
  const answers: CanaryAnswer[] = [];
  let total = 0;
  const keep = (a: CanaryAnswer) => {
    total++;
    answers.push(a);
    if (answers.length > KEPT_FIRST + KEPT_LAST) answers.splice(KEPT_FIRST, 1);
  };
  for (let attempt = 1; ; attempt++) {
    const remaining = deadline - performance.now();
    const e = upstream.expect(reply);
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), Math.max(1, remaining));
    const sent = gateway
      .send({ ...req, body: withToken(body, e.token), caseToken: e.token, signal: ac.signal })
      .then((res) => ({ res }) as { res: GwResponse; err?: undefined }, (err: unknown) => ({ err }) as { res?: undefined; err: unknown });
    // Forwarded is what counts: the gateway's answer may come later, or never.
    const first = await Promise.race([e.received(Math.max(1, remaining)).then((r) => (r ? 'forwarded' : 'deadline')), sent.then(() => 'answered')]);
    const answer = first === 'forwarded' ? await Promise.race([sent, bounded(Math.min(AFTER_FORWARD_MS, Math.max(1, deadline - performance.now())))]) : await sent;
    const forwarded = first === 'forwarded' || (await e.received(answer?.res && answer.res.status < 300 ? 1000 : 200)) !== null;
    if (first === 'forwarded' && !answer) ac.abort();
    clearTimeout(timer);
    upstream.release(e.token);
    const at = Math.round(performance.now() - t0);
    keep({
      atMs: at,
      forwarded,
      status: answer?.res?.status ?? null,
      contentType: answer?.res?.header('content-type') ?? null,
      firstBytes: answer?.res ? answer.res.body.subarray(0, FIRST_BYTES).toString('utf8') : null,
      error: !answer ? 'forwarded; no answer yet' : answer.err === undefined ? null : describeError(answer.err),
    });
    if (forwarded) return { protocol: p, ready: true, attempts: attempt, waitedMs: at, answers, answersTotal: total };
    const wait = BACKOFF_MS[Math.min(attempt - 1, BACKOFF_MS.length - 1)];
    if (performance.now() + wait >= deadline) return { protocol: p, ready: false, attempts: attempt, waitedMs: at, answers, answersTotal: total };
    await new Promise((r) => setTimeout(r, wait));
  }
}

/** One line on what the gateway answered instead of forwarding, escaped. */
export function answerLine(a: CanaryAnswer | undefined): string {
  if (!a) return 'nothing';
  if (a.status === null) return a.error ?? 'nothing';
  const bytes = a.firstBytes ? ` ${JSON.stringify(a.firstBytes.slice(0, 200))}` : ' (empty body)';
  return `${a.status} ${a.contentType ?? '(no content-type)'}${bytes}`;
}

/**
 * Waits until the gateway has forwarded a canary of every protocol in `protocols`, bounded by
 * `timeoutMs`. Throws a one-line HarnessError (exit 2) when one never is.
 */
export async function awaitReady(
  gateway: GatewayClient,
  upstream: Upstream,
  protocols: readonly Protocol[],
  opts: { timeoutMs: number; print?: (s: string) => void },
): Promise<Readiness> {
  const t0 = performance.now();
  const deadline = t0 + opts.timeoutMs;
  opts.print?.(`waiting up to ${Math.round(opts.timeoutMs / 1000)} s for the gateway to forward a canary request (${protocols.join(', ')}) to the recording upstream ${upstream.url}`);
  const protocolsReady = await Promise.all(protocols.map((p) => gateOne(gateway, upstream, p, t0, deadline)));
  const readiness: Readiness = { timeoutMs: opts.timeoutMs, waitedMs: Math.round(performance.now() - t0), ready: protocolsReady.every((r) => r.ready), protocols: protocolsReady };
  const stuck = protocolsReady.find((r) => !r.ready);
  if (stuck) {
    const { path } = canary(stuck.protocol).req;
    const last = stuck.answers.at(-1);
    const hint =
      last?.status && last.status >= 400 && last.status < 500
        ? ` (a ${last.status}: check the protocol's base path, headers and credential: --base-path, --header)`
        : '';
    throw new HarnessError(
      'NOT_READY',
      `gateway not ready: in ${Math.round(opts.timeoutMs / 1000)} s no ${stuck.protocol} canary (POST ${gateway.url(path)}) reached the recording upstream; ${stuck.attempts} tries, the last answered ${answerLine(last)}${hint}; is its upstream set to ${upstream.url}?`,
    );
  }
  opts.print?.(`gateway ready: forwarded ${protocols.join(', ')} after ${readiness.waitedMs} ms`);
  return readiness;
}
