// Sign-in as Claude Code does it against an apps gateway: device authorization (RFC 8628),
// verification through the gateway's login and the IdP as a browser would, polling, refresh,
// and tokens forged from a real one. Sign-ins go one at a time (the IdP signs in the user
// queued for the next authorization) and each user's session is made once per run and shared;
// checks that spend or revoke a session make their own. Refreshes (the gateway asks the IdP
// again) are serialized with sign-ins, so a check that changes the IdP (a key roll) can hold
// it while no other sign-in or refresh is under way (holdingIdp). jose (an optional package)
// is loaded when a token is forged: every check is imported at start, apps checks included.
import { importOptional } from '../../src/core/optional.js';
import { AppsPrecondition, locked, once, type AppsFixture } from './fixture.js';
import { deviceUrls, redirectUrl, type HandedOut } from './urls.js';
import { brief, call, errorType, type Reply } from './wire.js';

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
  /** Every URL the gateway handed out on the way: the device answer's links, the redirects' targets. */
  handedOut: HandedOut[];
  /** What the link the user opens (verification_uri_complete, else verification_uri) answered: status, or why it gave no answer. */
  page?: string;
  /** Polls once more with the same device code (after tokens were issued: it must yield none). */
  repoll?: () => Promise<Reply>;
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
  const handedOut: HandedOut[] = [];
  try {
    return await signInSteps(fx, user, { steps, handedOut }, opts);
  } catch (e) {
    // A step that gets no answer (a gateway that never finishes sign-in) is a failed sign-in, with the steps as evidence.
    const err = e as Error;
    return { ok: false, error: `no answer after ${steps.length ? `"${steps[steps.length - 1]}"` : 'the start'} (${err.name}: ${err.message})`, steps, handedOut };
  }
}

/** The browser opens the link the user is shown; a link that gives no answer is noted, and sign-in goes on by verification_uri. */
async function openLink(url: string): Promise<string> {
  try {
    const r = await call(url);
    return r.status === 200 ? '200' : brief(r);
  } catch (e) {
    return `no answer (${(e as Error).name}: ${(e as Error).message})`;
  }
}

async function signInSteps(fx: AppsFixture, user: string, seen: { steps: string[]; handedOut: HandedOut[] }, opts: { holdingIdp?: boolean }): Promise<SignIn> {
  const { steps, handedOut } = seen;
  const meta = await metadata(fx);
  if (!meta.device_authorization_endpoint || !meta.token_endpoint) return { ok: false, error: 'metadata: no device_authorization_endpoint or token_endpoint', steps, handedOut };
  const da = await call(meta.device_authorization_endpoint, { method: 'POST', form: { surface: 'claude_code' } });
  const d = da.json as { device_code?: string; user_code?: string; verification_uri?: string; verification_uri_complete?: string; interval?: number } | undefined;
  steps.push(`device_authorization: ${da.status}`);
  handedOut.push(...deviceUrls(d));
  if (da.status !== 200 || !d?.device_code || !d.user_code || !d.verification_uri) return { ok: false, error: 'device_authorization failed', steps, handedOut };
  const poll = () => call(meta.token_endpoint!, { method: 'POST', form: { grant_type: deviceGrant, device_code: d.device_code! } });
  const early = await poll();
  steps.push(`poll before approval: ${early.status} ${String(errorType(early) ?? '')}`);
  const badEarlyPoll = early.status !== 400 || errorType(early) !== 'authorization_pending' ? `${early.status} ${String(errorType(early) ?? early.contentType)}` : undefined;
  let page: string | undefined;
  const verify = async () => {
    page = await openLink(d.verification_uri_complete ?? d.verification_uri!);
    steps.push(`verification page: ${page}`);
    const post = await call(d.verification_uri!, { method: 'POST', form: { user_code: d.user_code! }, headers: { origin: new URL(d.verification_uri!).origin } });
    const cookie = (post.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const toIdp = post.headers.get('location');
    steps.push(`verify: ${post.status}`);
    if (!toIdp) return;
    handedOut.push(redirectUrl('verify', toIdp, d.verification_uri!, fx.idp.issuer));
    // Scripted for this authorization's state (queued only when the gateway sends none): one
    // that never reaches the IdP leaves no user for another sign-in.
    const state = new URL(toIdp).searchParams.get('state') ?? undefined;
    fx.idp.signInNext(user, { state });
    const idp = await call(toIdp);
    const back = idp.headers.get('location');
    steps.push(`idp authorize: ${idp.status}${whoSignedIn(fx, state)}`);
    if (!back) return;
    const cb = await call(back, { headers: { cookie } });
    steps.push(`callback: ${cb.status}`);
    const after = cb.headers.get('location');
    if (after) handedOut.push(redirectUrl('callback', after, back, fx.idp.issuer));
  };
  await (opts.holdingIdp ? verify() : locked(fx, verify));
  // RFC 8628 3.5: no faster than the interval (protocol pacing, not synchronisation).
  await new Promise((r) => setTimeout(r, Math.min(Math.max(d.interval ?? 5, 0), 10) * 1000));
  const done = await poll();
  steps.push(`poll after approval: ${done.status} ${done.status === 200 ? 'tokens' : String(errorType(done) ?? '')}`);
  const t = done.json as Partial<Tokens> | undefined;
  const common = { steps, badEarlyPoll, handedOut, page };
  if (done.status === 200 && typeof t?.access_token === 'string' && typeof t.refresh_token === 'string') return { ok: true, tokens: t as Tokens, ...common, repoll: poll };
  return { ok: false, error: String(errorType(done) ?? `status ${done.status}`), ...common };
}

/** Whom the IdP signed in (or why not) for the authorization with `state`, as the step's note. */
function whoSignedIn(fx: AppsFixture, state: string | undefined): string {
  const a = state === undefined ? undefined : fx.idp.authorizations.filter((x) => x.state === state).at(-1);
  if (!a) return '';
  return a.refused ? ` (refused${a.user ? ` ${a.user}` : ''}: ${a.refused})` : ` (signed in ${a.user})`;
}

/** The run's shared session of `user` (signed in once). */
export async function session(fx: AppsFixture, user: string): Promise<string> {
  const s = await once(fx, `session:${user}`, () => signIn(fx, user));
  if (!s.ok || !s.tokens) throw new AppsPrecondition(`sign-in of ${user} failed (${s.error}): ${s.steps.join('; ')}`);
  return s.tokens.access_token;
}

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
  const { SignJWT, decodeJwt } = await importOptional('apps', () => import('jose'));
  const claims = decodeJwt(real);
  const payload = { ...claims, ...(change.aud ? { aud: change.aud } : {}), ...(change.exp !== undefined ? { exp: change.exp } : {}) };
  if (change.alg === 'none') {
    const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    return `${enc({ alg: 'none', typ: 'JWT' })}.${enc(payload)}.`;
  }
  return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(change.secret ?? fx.jwtSecret));
}
