// The mock OIDC identity provider the apps profile signs its test users in with, on loopback:
// `MockIdp` serves one realm (realm.ts) at the root of its own server; `SharedIdp` is one server
// for many realms at once, each under its own issuer path (`/realms/<n>`) with its own users,
// clients, keys, codes, refresh tokens, script and record of requests, so runs that go on at
// once can share it (the apps detection matrix) and none sees another's sign-ins or keys. A
// request under no open realm's path answers 404.
import type http from 'node:http';
import { LoopbackServer } from '../../src/core/server.js';
import { IdpRealm, type MockIdpOptions } from './realm.js';

export { IdpRealm, type IdpRequest, type MockIdpOptions } from './realm.js';

/**
 * How long the IdP keeps an idle connection open: past its clients' own pool time, so a pooled
 * connection is given up by the client first. With Node's default 5 s, a client in this process
 * (the reference apps gateway, run in the test's process) that was held past it (PGlite loading
 * its template) reused a connection the server closed in the same turn: `fetch failed`,
 * ECONNRESET, seen in the apps detection matrix beside two CPU hogs and made again by a
 * 5.2-6.3 s hold between two fetches to a server in the same process (1 of 8; none at 65 s).
 */
export const IDP_KEEP_ALIVE_MS = 65_000;

/** A loopback server that hands each request to `serve`. */
class Front extends LoopbackServer {
  constructor(
    what: string,
    private readonly serve: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  ) {
    super(what);
    this.server.keepAliveTimeout = IDP_KEEP_ALIVE_MS;
  }

  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.serve(req, res);
  }
}

function notFound(res: http.ServerResponse, what: string): void {
  res.writeHead(404, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify({ error: 'not_found', error_description: what }));
}

/** One realm on a server of its own, its issuer the server's URL. */
export class MockIdp extends IdpRealm {
  private readonly front: Front;

  constructor(opts: MockIdpOptions = {}) {
    let self: MockIdp | undefined;
    const front = new Front('mock identity provider', (req, res) => self!.serve(req, res));
    super(opts, { base: () => front.url, prefix: '' });
    self = this;
    this.front = front;
  }

  /** The server's URL (the issuer). */
  get url(): string {
    return this.front.url;
  }

  override async start(host = '127.0.0.1', port = 0): Promise<string> {
    await this.front.start(host, port);
    return super.start();
  }

  override async stop(): Promise<void> {
    await this.front.stop();
  }
}

const REALM_PATH = /^\/realms\/([^/?#]+)(.*)$/s;

/** Many realms on one server, each under `/realms/<n>`: opened by `realm()`, taken off by the realm's `stop()`. */
export class SharedIdp extends LoopbackServer {
  private readonly realms = new Map<string, IdpRealm>();
  private opened = 0;

  constructor() {
    super('shared mock identity provider');
    this.server.keepAliveTimeout = IDP_KEEP_ALIVE_MS;
  }

  /** How many realms are open now. */
  get open(): number {
    return this.realms.size;
  }

  /** A new realm of its own (its issuer `${url}/realms/<n>`, never given twice); it answers once started (its first key). */
  realm(opts: MockIdpOptions = {}): IdpRealm {
    const id = `run-${++this.opened}`;
    const realm = new IdpRealm(opts, { base: () => this.url, prefix: `/realms/${id}`, drop: () => void this.realms.delete(id) });
    this.realms.set(id, realm);
    return realm;
  }

  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const m = REALM_PATH.exec(req.url ?? '/');
    const realm = m ? this.realms.get(m[1]!) : undefined;
    if (!m || !realm?.started) return notFound(res, 'no such realm on this identity provider');
    // The realm answers as if it were the server's root: its own paths, its own query.
    const rest = m[2]!;
    req.url = rest.startsWith('/') ? rest : `/${rest}`;
    realm.serve(req, res);
  }
}
