// What the apps checks share: the profile's surroundings as the checks see them (set up by
// the harness, passed as the run's fixture), and a client that behaves like Claude Code
// against an apps gateway: device authorization (RFC 8628), verification through the
// gateway's login and the IdP as a browser would, polling, refresh, discovery, managed
// settings, messages (JSON and stream) and telemetry posts. Sign-ins go one at a time (the IdP
// signs in the user queued for the next authorization) and each user's session is made once
// per run and shared; checks that spend or revoke a session make their own. Refreshes (the
// gateway asks the IdP again) are serialized with sign-ins, so a check that changes the IdP
// (a key roll) can hold it while no other sign-in or refresh is under way (holdingIdp).
import { randomUUID } from 'node:crypto';
import { SignJWT, decodeJwt } from 'jose';
import { fail, type CheckContext, type Verdict } from '../../src/core/check.js';
import { maskTokens } from '../../src/core/mask.js';

export interface AppsSpan {
  name: string;
  attributes: Record<string, unknown>;
}

/** The profile's surroundings (the harness builds them; checks only use this view). */
export interface AppsFixture {
  gatewayUrl: string;
  /** The session secret the harness configured: to make tokens that differ in one property only. */
  jwtSecret: string;
  adminKey: string;
  idp: {
    issuer: string;
    signInNext(name: string): void;
    /** The kid of the key that signs now. */
    readonly currentKid: string;
    /** Signs with a new key (new kid) from now on; the old public key leaves the JWKS unless kept. */
    rotateKeys(opts?: { keepOld?: boolean }): Promise<string>;
    /** An earlier key signs again and is the only key published. */
    reinstateKey(kid: string): void;
    /** The next authorization's ID token is signed with an earlier (e.g. withdrawn) key; null calls it off. */
    signNextWith(kid: string | null): void;
    /** Deprovisions a user at the IdP; reinstateUser provisions them again. */
    revokeUser(name: string): void;
    reinstateUser(name: string): void;
    /** What the IdP was asked (method, path, epoch ms): who fetched the JWKS, and when. */
    readonly requests: readonly { method: string; path: string; at: number }[];
  };
  collector: {
    spans: AppsSpan[];
    sawText(text: string): boolean;
    waitFor<T>(pred: () => T | undefined | null | false, timeoutMs: number): Promise<T | undefined>;
    setMode(mode: { kind: 'up' } | { kind: 'error'; status: number } | { kind: 'refuse' }): Promise<void>;
  };
  upstreams: ReadonlyMap<string, { requests: { body: Record<string, unknown> | null }[] }>;
  /** Restarts the gateway on the same address and store (APP-SPEND-3); absent when the harness did not start the gateway. */
  restart?: () => Promise<void>;
}

export function fixtureOf(ctx: CheckContext): AppsFixture {
  if (!ctx.fixture) throw new Error('apps check run without the apps profile fixture');
  return ctx.fixture as AppsFixture;
}

const memos = new WeakMap<AppsFixture, Map<string, Promise<unknown>>>();
const locks = new WeakMap<AppsFixture, Promise<unknown>>();

/** Computes `fn` once per run (per fixture) and shares the promise. */
export function once<T>(fx: AppsFixture, key: string, fn: () => Promise<T>): Promise<T> {
  let m = memos.get(fx);
  if (!m) memos.set(fx, (m = new Map()));
  if (!m.has(key)) m.set(key, fn());
  return m.get(key) as Promise<T>;
}

/** Runs `fn` after every earlier locked call has finished. */
function locked<T>(fx: AppsFixture, fn: () => Promise<T>): Promise<T> {
  const prev = locks.get(fx) ?? Promise.resolve();
  const next = prev.then(fn, fn);
  locks.set(fx, next.catch(() => undefined));
  return next;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
  contentType: string;
  ms: number;
}

const TIMEOUT_MS = 10_000;

export async function call(url: string, init: RequestInit & { form?: Record<string, string>; bodyJson?: unknown } = {}): Promise<Reply> {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.form) {
    headers.set('content-type', 'application/x-www-form-urlencoded');
    body = new URLSearchParams(init.form).toString();
  } else if (init.bodyJson !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.bodyJson);
  }
  const t0 = performance.now();
  const res = await fetch(url, { ...init, headers, body, redirect: 'manual', signal: init.signal ?? AbortSignal.timeout(TIMEOUT_MS) });
  const text = await res.text();
  const ms = performance.now() - t0;
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json, contentType: res.headers.get('content-type') ?? '', ms };
}

export const isJson = (r: Reply) => /^application\/json\b/i.test(r.contentType) && r.json !== undefined;
export const errorType = (r: Reply) => ((r.json as { error?: { type?: string } } | undefined)?.error?.type ?? (r.json as { error?: string } | undefined)?.error);
export const bearer = (token: string) => ({ authorization: `Bearer ${token}`, 'anthropic-version': '2023-06-01' });

export interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

export interface SignIn {
  ok: boolean;
  tokens?: Tokens;
  /** The token endpoint's error after verification (e.g. access_denied), or the step that broke. */
  error?: string;
  /** What each step answered (status and short note), for the evidence. */
  steps: string[];
  /** What the poll before approval answered, when it was not RFC 8628's 400 authorization_pending. */
  badEarlyPoll?: string;
}

interface Metadata {
  device_authorization_endpoint?: string;
  token_endpoint?: string;
  revocation_endpoint?: string;
}

export async function metadata(fx: AppsFixture): Promise<Metadata> {
  return once(fx, 'metadata', async () => (await call(`${fx.gatewayUrl}/.well-known/oauth-authorization-server`)).json as Metadata);
}

const deviceGrant = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * Signs `user` in the way Claude Code does: device authorization, one poll before approval
 * (which must be `authorization_pending`), the browser's verification through the gateway and
 * the IdP, then polls no faster than the `interval` the gateway asked for.
 */
export async function signIn(fx: AppsFixture, user: string, opts: { holdingIdp?: boolean } = {}): Promise<SignIn> {
  const steps: string[] = [];
  try {
    return await signInSteps(fx, user, steps, opts);
  } catch (e) {
    // A step that gets no answer (a gateway that never finishes sign-in) is a failed sign-in, with the steps as evidence.
    const err = e as Error;
    return { ok: false, error: `no answer after ${steps.length ? `"${steps[steps.length - 1]}"` : 'the start'} (${err.name}: ${err.message})`, steps };
  }
}

async function signInSteps(fx: AppsFixture, user: string, steps: string[], opts: { holdingIdp?: boolean }): Promise<SignIn> {
  const meta = await metadata(fx);
  if (!meta.device_authorization_endpoint || !meta.token_endpoint) return { ok: false, error: 'metadata: no device_authorization_endpoint or token_endpoint', steps };
  const da = await call(meta.device_authorization_endpoint, { method: 'POST', form: { surface: 'claude_code' } });
  const d = da.json as { device_code?: string; user_code?: string; verification_uri?: string; verification_uri_complete?: string; interval?: number } | undefined;
  steps.push(`device_authorization: ${da.status}`);
  if (da.status !== 200 || !d?.device_code || !d.user_code || !d.verification_uri) return { ok: false, error: 'device_authorization failed', steps };
  const poll = () => call(meta.token_endpoint!, { method: 'POST', form: { grant_type: deviceGrant, device_code: d.device_code! } });
  const early = await poll();
  steps.push(`poll before approval: ${early.status} ${String(errorType(early) ?? '')}`);
  const badEarlyPoll = early.status !== 400 || errorType(early) !== 'authorization_pending' ? `${early.status} ${String(errorType(early) ?? early.contentType)}` : undefined;
  const verify = async () => {
    const page = await call(d.verification_uri_complete ?? d.verification_uri!);
    steps.push(`verification page: ${page.status}`);
    const post = await call(d.verification_uri!, { method: 'POST', form: { user_code: d.user_code! }, headers: { origin: new URL(d.verification_uri!).origin } });
    const cookie = (post.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const toIdp = post.headers.get('location');
    steps.push(`verify: ${post.status}`);
    if (!toIdp) return;
    // Queued only now: a verification that never reaches the IdP leaves no user queued for the next sign-in.
    fx.idp.signInNext(user);
    const idp = await call(toIdp);
    const back = idp.headers.get('location');
    steps.push(`idp authorize: ${idp.status}`);
    if (!back) return;
    const cb = await call(back, { headers: { cookie } });
    steps.push(`callback: ${cb.status}`);
  };
  await (opts.holdingIdp ? verify() : locked(fx, verify));
  // RFC 8628 3.5: no faster than the interval (protocol pacing, not synchronisation).
  await new Promise((r) => setTimeout(r, Math.min(Math.max(d.interval ?? 5, 0), 10) * 1000));
  const done = await poll();
  steps.push(`poll after approval: ${done.status} ${done.status === 200 ? 'tokens' : String(errorType(done) ?? '')}`);
  const t = done.json as Partial<Tokens> | undefined;
  if (done.status === 200 && typeof t?.access_token === 'string' && typeof t.refresh_token === 'string') return { ok: true, tokens: t as Tokens, steps, badEarlyPoll };
  return { ok: false, error: String(errorType(done) ?? `status ${done.status}`), steps, badEarlyPoll };
}

/** The run's shared session of `user` (signed in once). */
export async function session(fx: AppsFixture, user: string): Promise<string> {
  const s = await once(fx, `session:${user}`, () => signIn(fx, user));
  if (!s.ok || !s.tokens) throw new AppsPrecondition(`sign-in of ${user} failed (${s.error}): ${s.steps.join('; ')}`);
  return s.tokens.access_token;
}

/** A precondition of the check could not be set up (e.g. sign-in broke): a failure of the check, said so. */
export class AppsPrecondition extends Error {}

export async function refresh(fx: AppsFixture, refreshToken: string, opts: { holdingIdp?: boolean } = {}): Promise<Reply> {
  const meta = await metadata(fx);
  const ask = () => call(meta.token_endpoint!, { method: 'POST', form: { grant_type: 'refresh_token', refresh_token: refreshToken } });
  return opts.holdingIdp ? ask() : locked(fx, ask);
}

/**
 * Runs `fn` holding the IdP: no other check's sign-in or refresh runs until it ends (sign-ins
 * and refreshes inside `fn` pass `{ holdingIdp: true }`). For a check that changes the IdP for
 * everyone (a key roll, a user deprovisioned for a moment).
 */
export function holdingIdp<T>(fx: AppsFixture, fn: () => Promise<T>): Promise<T> {
  return locked(fx, fn);
}

/** A token like the gateway's own for this session, changed as asked (forgery, expiry). */
export async function forge(fx: AppsFixture, real: string, change: { secret?: string; exp?: number; aud?: string; alg?: 'none' }): Promise<string> {
  const claims = decodeJwt(real);
  const payload = { ...claims, ...(change.aud ? { aud: change.aud } : {}), ...(change.exp !== undefined ? { exp: change.exp } : {}) };
  if (change.alg === 'none') {
    const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    return `${enc({ alg: 'none', typ: 'JWT' })}.${enc(payload)}.`;
  }
  return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(change.secret ?? fx.jwtSecret));
}

/** A messages request; `tag` (unique) is put in the prompt so the upstreams' records can be searched for it. */
export async function messages(fx: AppsFixture, token: string, model: string, opts: { tag?: string; prompt?: string; stream?: boolean } = {}): Promise<Reply & { tag: string }> {
  const tag = opts.tag ?? `gwc-req=${randomUUID()}`;
  const r = await call(`${fx.gatewayUrl}/v1/messages`, { method: 'POST', headers: bearer(token), bodyJson: { model, max_tokens: 16, stream: opts.stream ?? false, messages: [{ role: 'user', content: `${opts.prompt ?? 'hello'} ${tag}` }] } });
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

export interface SpendDenial {
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
}

const refused = (r: Reply) => [402, 403, 429].includes(r.status);
/** Waits before each later request: a gateway that records spend after the response gets ~1.5 s in all. */
const LATER_WAITS_MS = [50, 100, 200, 400, 800];

/** Once per run: dave gets a 1-cent daily limit, one request reports large usage, and the next request is sent. */
export function spendDenial(fx: AppsFixture): Promise<SpendDenial> {
  return once(fx, 'spend', async () => {
    const token = await session(fx, 'dave');
    const limit = await setSpendLimit(fx, 'user-dave', 1);
    if (limit.status !== 200) throw new AppsPrecondition(`the Admin API refused the spend limit: ${limit.status} ${limit.text.slice(0, 200)}`);
    const first = await messages(fx, token, 'claude-sonnet-4-6', { prompt: 'gwc-usage=1000000/100000' });
    const next = await messages(fx, token, 'claude-sonnet-4-6');
    let denied = next;
    let later = 0;
    // Protocol pacing, bounded: a gateway that counts spend after answering refuses a little later.
    for (const ms of LATER_WAITS_MS) {
      if (refused(denied) || first.status !== 200) break;
      await new Promise((r) => setTimeout(r, ms));
      denied = await messages(fx, token, 'claude-sonnet-4-6');
      later++;
    }
    return { token, first, next, denied, later, reached: receivedBy(fx, denied.tag) };
  });
}

/** Tokens a gateway may put in a body masked (the one masker, src/core/mask.ts): reports carry no credential. */
export { maskTokens };

/** The evidence form of a reply: status, type and the first of the body (inert text, tokens masked). */
export const brief = (r: Reply) => `${r.status} ${r.contentType || '-'} ${maskTokens(r.text).slice(0, 300)}`;

/** The body of an apps check: a failed precondition (e.g. a sign-in that broke) fails the check with its reason. */
export function appsRun(fn: (fx: AppsFixture, ctx: CheckContext) => Promise<Verdict>): (ctx: CheckContext) => Promise<Verdict> {
  return async (ctx) => {
    try {
      return await fn(fixtureOf(ctx), ctx);
    } catch (e) {
      if (e instanceof AppsPrecondition) return fail(e.message);
      throw e;
    }
  };
}

/** The spans of the request whose response carried `requestId`, waited for (bounded). */
export async function spansOf(fx: AppsFixture, requestId: string | null, timeoutMs = 5000): Promise<AppsSpan[]> {
  if (!requestId) return [];
  const find = () => fx.collector.spans.filter((s) => Object.values(s.attributes).some((v) => v === requestId));
  return (await fx.collector.waitFor(() => (find().length ? find() : undefined), timeoutMs)) ?? [];
}
