// What every module of the reference apps gateway works with: its configuration, store, IdP,
// telemetry and session key, the fault it runs with, and the caller's claims.
import type { JWTVerifyGetKey } from 'jose';
import type { AppsConfig } from '../config.js';
import type { AppsFaultName } from '../faults.js';
import type { Db } from '../store.js';
import type { GatewayTelemetry } from '../telemetry.js';

/** The signed-in user, as a session token carries them. */
export interface Claims {
  sub: string;
  email: string;
  name: string;
  groups: string[];
  sid: string;
}

/** The IdP endpoints the gateway reads from the IdP's discovery document. */
export interface IdpMeta {
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

/** Spend kept outside the store, for the two spend faults that need it. */
export interface SpendMemory {
  /** Fault apps-spend-in-memory: the counters, by `sub|period key`. */
  readonly counters: Map<string, number>;
  /** Fault apps-spend-counted-late: a request's spend, recorded only once the user's next request was let through. */
  readonly late: Map<string, () => Promise<void>>;
}

export interface GatewayContext {
  readonly cfg: AppsConfig;
  readonly db: Db;
  readonly idp: IdpMeta;
  /** The IdP's signing keys, for ID tokens. */
  readonly jwks: JWTVerifyGetKey;
  readonly telemetry: GatewayTelemetry;
  /** The HS256 key of session tokens. */
  readonly key: Uint8Array;
  /** The origin user devices reach; known once the gateway listens. */
  publicUrl: string;
  readonly spend: SpendMemory;
  /** Whether the gateway runs with this fault. */
  is(fault: AppsFaultName): boolean;
  /** An audit line (never prompt text or credentials). */
  audit(evt: string, fields: Record<string, unknown>): void;
}

/** The audience of the gateway's own session tokens. */
export const SESSION_AUDIENCE = 'claude-gateway';
