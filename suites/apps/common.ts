// What the apps checks share, in one import: the fixture (fixture.ts), HTTP and evidence
// (wire.ts), sign-in and sessions (sign-in.ts), and here the requests the checks make after
// sign-in: messages (JSON and stream), where they went, spend limits and the once-per-run spend
// denials (one with JSON requests, one with streamed requests, as Claude Code sends them), and
// the spans of a request.
import { randomUUID } from 'node:crypto';
import { AppsPrecondition, once, type AppsFixture, type AppsSpan } from './fixture.js';
import { session } from './sign-in.js';
import { bearer, call, type Reply } from './wire.js';
import { excerpt } from '../shared/evidence.js';

export { AppsPrecondition, appsRun, fixtureOf, once, type AppsFixture, type AppsSpan } from './fixture.js';
export { forge, holdingIdp, metadata, refresh, session, signIn, type SignIn, type Tokens } from './sign-in.js';
export { bearer, brief, call, errorType, isJson, maskTokens, type Reply } from './wire.js';

/** A messages request; `tag` (unique) is put in the prompt so the upstreams' records can be searched for it. With `partial`, a body cut short is no error (`cut` says why). */
export async function messages(fx: AppsFixture, token: string, model: string, opts: { tag?: string; prompt?: string; stream?: boolean; partial?: boolean } = {}): Promise<Reply & { tag: string }> {
  const tag = opts.tag ?? `gwc-req=${randomUUID()}`;
  const r = await call(`${fx.gatewayUrl}/v1/messages`, { method: 'POST', headers: bearer(token), partial: opts.partial, bodyJson: { model, max_tokens: 16, stream: opts.stream ?? false, messages: [{ role: 'user', content: `${opts.prompt ?? 'hello'} ${tag}` }] } });
  return { ...r, tag };
}

/** The upstreams that received the request carrying `tag`, and the model each got. */
export function receivedBy(fx: AppsFixture, tag: string): { upstream: string; model: string }[] {
  const out: { upstream: string; model: string }[] = [];
  for (const [name, u] of fx.upstreams) for (const r of u.requests) if (JSON.stringify(r.body ?? '').includes(tag)) out.push({ upstream: name, model: String(r.body?.model) });
  return out;
}

/** Sets a spend limit for a user through the Admin API (the public dialect's mechanism). */
export async function setSpendLimit(fx: AppsFixture, userId: string, cents: number, period = 'daily'): Promise<Reply> {
  return call(`${fx.gatewayUrl}/v1/organizations/spend_limits`, { method: 'POST', headers: { 'x-api-key': fx.adminKey }, bodyJson: { scope: { type: 'user', user_id: userId }, amount: String(cents), period } });
}

/** How the spend denials send their requests: JSON bodies, or streams (as Claude Code does). Each has its own user. */
export const SPEND_MODES = [
  { mode: 'json', user: 'dave', stream: false, label: 'JSON requests' },
  { mode: 'stream', user: 'frank', stream: true, label: 'streamed requests' },
] as const;
export type SpendMode = (typeof SPEND_MODES)[number];

export interface SpendDenial {
  how: SpendMode;
  token: string;
  /** The request that took the user over the cap (served). */
  first: Reply;
  /** The request right after it (APP-SPEND-1: must be refused). */
  next: Reply & { tag: string };
  /**
   * The first refused request: `next`, or one sent a little later when the gateway counted the
   * spend only after answering (the last one sent when none was refused). The checks of what a
   * denial is (no upstream, restart, telemetry) judge this one.
   */
  denied: Reply & { tag: string };
  /** How many more requests were sent until one was refused (0: `next` was). */
  later: number;
  reached: { upstream: string; model: string }[];
  /** The UTC day (YYYY-MM-DD) the user was taken over the cap: the daily window the denial belongs to. */
  day: string;
}

/** The UTC day of `at` (YYYY-MM-DD): the daily spend window it falls in. */
export const utcDay = (at: Date = new Date()): string => at.toISOString().slice(0, 10);

const refused = (r: Reply) => [402, 403, 429].includes(r.status);
/** Waits before each later request: a gateway that records spend after the response gets ~1.5 s in all. */
const LATER_WAITS_MS = [50, 100, 200, 400, 800];

/** Signs `user` in and gives them a 1-cent daily limit through the Admin API. */
export async function limitedSession(fx: AppsFixture, user: string): Promise<string> {
  const token = await session(fx, user);
  const limit = await setSpendLimit(fx, `user-${user}`, 1);
  if (limit.status !== 200) throw new AppsPrecondition(`the Admin API refused the spend limit: ${limit.status} ${excerpt(limit.text, 200)}`);
  return token;
}

/**
 * After the request that took the user over the cap: the next request, and, while none is
 * refused, a few more with growing waits (protocol pacing, bounded: a gateway that counts spend
 * after answering refuses a little later). Returns the next, the first refused (else the last) and how many came after the next.
 */
export async function untilRefused(send: () => Promise<Reply & { tag: string }>): Promise<{ next: Reply & { tag: string }; denied: Reply & { tag: string }; later: number }> {
  const next = await send();
  let denied = next;
  let later = 0;
  for (const ms of LATER_WAITS_MS) {
    if (refused(denied)) break;
    await new Promise((r) => setTimeout(r, ms));
    denied = await send();
    later++;
  }
  return { next, denied, later };
}

/** Once per run and mode: the mode's user gets a 1-cent daily limit, one request reports large usage, and the next requests are sent. */
export function spendDenial(fx: AppsFixture, how: SpendMode): Promise<SpendDenial> {
  return once(fx, `spend:${how.mode}`, async () => {
    const token = await limitedSession(fx, how.user);
    const send = (prompt?: string) => messages(fx, token, 'claude-sonnet-4-6', { prompt, stream: how.stream });
    const day = utcDay();
    const first = await send('gwc-usage=1000000/100000');
    const after = first.status === 200 ? await untilRefused(() => send()) : { next: await send(), later: 0 };
    const denied = 'denied' in after ? after.denied : after.next;
    return { how, token, first, next: after.next, denied, later: after.later, reached: receivedBy(fx, denied.tag), day };
  });
}

/** Both spend denials (JSON and streamed), run side by side. */
export const spendDenials = (fx: AppsFixture): Promise<SpendDenial[]> => Promise.all(SPEND_MODES.map((m) => spendDenial(fx, m)));

/** The spans of the request whose response carried `requestId`, waited for (bounded). */
export async function spansOf(fx: AppsFixture, requestId: string | null, timeoutMs = 5000): Promise<AppsSpan[]> {
  if (!requestId) return [];
  const find = () => fx.collector.spans.filter((s) => Object.values(s.attributes).some((v) => v === requestId));
  return (await fx.collector.waitFor(() => (find().length ? find() : undefined), timeoutMs)) ?? [];
}
