// The apps checks' fixture: the profile's surroundings as the checks see them (set up by the
// harness, passed as the run's fixture), what is computed once per run and shared, the lock
// that keeps sign-ins and refreshes one at a time, and the wrapper that turns a failed
// precondition into a failed check.
import { fail, type CheckContext, type Verdict } from '../../src/check/check.js';

export interface AppsSpan {
  name: string;
  attributes: Record<string, unknown>;
}

/** The profile's surroundings (the harness builds them; checks only use this view). */
export interface AppsFixture {
  gatewayUrl: string;
  /** The configuration's `listen.public_url`: where user devices reach the gateway, so every URL it hands out must be on it. */
  publicUrl: string;
  /** The session secret the harness configured: to make tokens that differ in one property only. */
  jwtSecret: string;
  adminKey: string;
  idp: {
    issuer: string;
    /** The user the authorization with `state` signs in (the next one when no state is given). */
    signInNext(name: string, opts?: { state?: string }): void;
    /** The authorizations answered: their state, whom they signed in, or why they were refused. */
    readonly authorizations: readonly { state: string | null; user: string | null; refused?: string }[];
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
    /** Where the first of `pieces` occurs in what the collector received (decoded fields, bytes read as text, and raw bodies). */
    findAny(pieces: string[]): { piece: string; where: string } | undefined;
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
export function locked<T>(fx: AppsFixture, fn: () => Promise<T>): Promise<T> {
  const prev = locks.get(fx) ?? Promise.resolve();
  const next = prev.then(fn, fn);
  locks.set(fx, next.catch(() => undefined));
  return next;
}

/** A precondition of the check could not be set up (e.g. sign-in broke): a failure of the check, said so. */
export class AppsPrecondition extends Error {}

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
