// The mock IdP's signing keys: every key it has had (one oauth2-mock-server issuer and service
// per key, since the library's key store cannot drop keys), the one that signs now, and the
// earlier public keys a rotation kept in the JWKS.
import { randomUUID } from 'node:crypto';
import { OAuth2Issuer, OAuth2Service } from 'oauth2-mock-server';

/** One signing key with the library issuer and service that sign with it. */
export interface Generation {
  issuer: OAuth2Issuer;
  service: OAuth2Service;
  kid: string;
}

export class KeyRing {
  private gen: Generation | undefined;
  /** Public keys still published after a rotation that kept them. */
  private retained: Record<string, unknown>[] = [];
  /** Every signing key this IdP has had, by kid. */
  private readonly generations = new Map<string, Generation>();
  /** The earlier key that signs the next authorization's ID token, if one was asked for. */
  private signNextKid: string | null = null;
  /** ID tokens being signed with an earlier key (a token request waits for them). */
  private readonly early = new Set<Promise<void>>();

  /**
   * @param url the issuer URL, once the IdP listens
   * @param wire hooks the IdP's handlers onto each new service
   */
  constructor(
    private readonly alg: string,
    private readonly url: () => string,
    private readonly wire: (service: OAuth2Service) => void,
  ) {}

  /** Whether the first key is made. */
  get ready(): boolean {
    return this.gen !== undefined;
  }

  /** The key (and service) that signs now. */
  get current(): Generation {
    if (!this.gen) throw new Error('mock IdP: no key yet (start the IdP first)');
    return this.gen;
  }

  /** Makes the first key. */
  async start(): Promise<void> {
    this.gen = await this.newGeneration();
  }

  /** An earlier or current key, by kid. */
  get(kid: string): Generation | undefined {
    return this.generations.get(kid);
  }

  /** A fresh signing key; the old public key stays published only with `keepOld`. Returns the new kid. */
  async rotate(keepOld: boolean): Promise<string> {
    const old = this.current.issuer.keys.toJSON();
    this.gen = await this.newGeneration();
    this.retained = keepOld ? [...this.retained, ...old] : [];
    return this.gen.kid;
  }

  /** An earlier key signs again and is the only key published. */
  reinstate(kid: string): void {
    const g = this.generations.get(kid);
    if (!g) throw new Error(`mock IdP: no key ${kid}`);
    this.gen = g;
    this.retained = [];
  }

  /** Drops a public key kept by an earlier rotation from the JWKS. */
  revoke(kid: string): void {
    if (kid === this.current.kid) throw new Error('mock IdP: rotate before revoking the current key');
    this.retained = this.retained.filter((k) => k.kid !== kid);
  }

  /** The next authorization's ID token is signed with this earlier key (null: called off). */
  signNextWith(kid: string | null): void {
    if (kid !== null && !this.generations.has(kid)) throw new Error(`mock IdP: no key ${kid}`);
    this.signNextKid = kid;
  }

  /** When an earlier key was asked for, signs `claims` with it now and hands the token to `done`. */
  signEarly(claims: Record<string, unknown>, ttl: number, done: (token: string) => void): void {
    if (this.signNextKid === null) return;
    const signer = this.generations.get(this.signNextKid)!.issuer;
    this.signNextKid = null;
    const p: Promise<void> = signer
      .buildToken({ expiresIn: ttl, scopesOrTransform: (_h, payload) => Object.assign(payload, claims) })
      .then(done)
      .finally(() => this.early.delete(p));
    this.early.add(p);
  }

  /** Settles when the ID tokens being signed with an earlier key are ready; undefined when none is. */
  pending(): Promise<unknown> | undefined {
    return this.early.size ? Promise.allSettled(this.early) : undefined;
  }

  /** The JWKS as served. */
  jwks(): { keys: Record<string, unknown>[] } {
    return { keys: [...this.current.issuer.keys.toJSON(), ...this.retained] };
  }

  private async newGeneration(): Promise<Generation> {
    const issuer = new OAuth2Issuer(false);
    issuer.url = this.url();
    const key = await issuer.keys.generate(this.alg, { kid: `gwc-${randomUUID()}` });
    const service = new OAuth2Service(issuer);
    this.generations.set(key.kid, { issuer, service, kid: key.kid });
    this.wire(service);
    return this.generations.get(key.kid)!;
  }
}
